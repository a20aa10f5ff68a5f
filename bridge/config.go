package bridge

import (
	"context"
	"log/slog"

	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/mcp"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/tools/ask"
)

// SessionConfig is what a session is built from.
type SessionConfig struct {
	// ID is the session's id.
	ID string
	// Cwd is the absolute working directory; Roots are the workspace roots,
	// Cwd first, then the additional directories.
	Cwd   string
	Roots []string
	// Files is the editor's file access for paths inside the roots, or nil
	// when the client offers none (use the disk).
	Files FileSystem
	// Approver asks the user through the editor; install it in the
	// session's pipeline.
	Approver pipeline.Approver
	// Plans asks the user whether to implement the plan the model
	// presents in plan mode (the exit_plan_mode tool's reviewer).
	Plans PlanReviewer
	// Asker puts the model's questions (the ask_user tool) to the user
	// through the editor: its form, a permission prompt, or neither.
	Asker ask.Asker
	// MCPServers are the servers the client asked the session to use.
	MCPServers []mcp.Server
	// Problems are what the user should be told at the session's first
	// turn about what it was given (a server it cannot use).
	Problems []string
	// History is the stored conversation of a loaded or resumed session
	// (nil for a new one): the session's log starts with it.
	History []session.Event
	// Settings are the session's settings to start with.
	Settings live.Settings
	// SystemPrompt is what the client asked the model to be told besides
	// (or instead of) the agent's own instructions.
	SystemPrompt SystemPrompt
}

// Factory builds a session's parts.
type Factory func(ctx context.Context, cfg SessionConfig) (*live.Session, error)

// Options configure a Bridge.
type Options struct {
	// Name, Title and Version identify the agent to the client.
	Name, Title, Version string
	// Factory builds each session. Required.
	Factory Factory
	// ContextWindow is the model's context size in tokens, for usage
	// updates of models whose own window is unknown; 0 sends none.
	ContextWindow int64
	// Store keeps sessions across processes; nil keeps them in memory
	// only, and session/load, list, resume and delete are not offered.
	Store *session.Store
	// Models lists the models the editor's model picker offers; nil offers
	// no model option. It is called for each session setup, so a list that
	// arrives later (a model server's GET /models) shows from then on.
	Models func() []ModelChoice
	// Defaults are the settings of a new session. Defaults.Preset is
	// policy.WorkspaceWrite when empty.
	Defaults live.Settings
	// MCPRemote says the factory connects the editor's HTTP and SSE MCP
	// servers (stdio needs no flag), so they are advertised.
	MCPRemote bool
	// Auth is how the user signs in; the zero value offers no sign-in.
	Auth Auth
	// Logger receives what the bridge cannot tell the client.
	Logger *slog.Logger
	// Redactor is the one acp.Options.Redactor hides secrets in frames
	// with; given here too, live command output holds back what could be
	// the start of a secret until it is seen whole (MapperOptions.Redactor).
	Redactor *secrets.Redactor
}
