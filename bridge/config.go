package bridge

import (
	"context"
	"log/slog"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/session"
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
	// MCPServers are the servers the client asked the session to use.
	MCPServers []acpsdk.McpServer
	// History is the stored conversation of a loaded or resumed session
	// (nil for a new one): the session's log starts with it.
	History []session.Event
	// Settings are the session's settings to start with.
	Settings Settings
}

// Runtime is a session's running parts.
type Runtime struct {
	Agent *agent.Agent
	Log   *session.Log
	// Close stops the session's background work (jobs); it is called once,
	// when the session ends.
	Close func()
	// Apply makes new settings take effect from the next model request
	// (the model, its reasoning effort, the permission preset). Nil when
	// the session cannot change them.
	Apply func(Settings)
	// Rules keeps the project's "always" answers; nil remembers none (the
	// always options are then not offered).
	Rules Rules
	// Checkpoint, when set, snapshots the workspace before each model turn
	// so that Undo can put it back; finish, called when that turn ends
	// (cancelled or not), snapshots it as the turn left it.
	Checkpoint func(ctx context.Context) (finish func(ctx context.Context) error, err error)
	// Undo reverts the files the last checkpointed turn changed, where
	// they are still what the turn left, and says what it did; nil
	// offers no /undo.
	Undo func(ctx context.Context) (Undone, error)
	// Compact summarizes the conversation now and returns how many turns
	// the summary covers; nil offers no /compact.
	Compact func(ctx context.Context) (turns int, err error)
	// Commands are the user's own slash commands.
	Commands []CustomCommand
	// Notices, when set, returns what the user should be told at the start
	// of the next turn (a server that failed) and forgets it.
	Notices func() []string
}

// Undone is what an /undo did.
type Undone struct {
	// Turn is false when there was no turn left to undo.
	Turn bool
	// Files are the files put back as they were before the turn.
	Files []session.FileRestored
	// Conflicts are the files the turn changed that changed again since
	// (the user, the editor, another session): left as they are.
	Conflicts []UndoConflict
	// Note is what the undo cannot cover, or "".
	Note string
}

// UndoConflict is a file /undo left as it is, and why.
type UndoConflict struct {
	Path   string // absolute
	Reason string // a phrase: "it changed after the turn"
}

// Rules is how a session remembers "always" answers.
type Rules interface {
	// Suggest returns the rules an "always allow" of call would keep.
	Suggest(call *registry.Call) ([]policy.Rule, bool)
	// Remember keeps rule for the project.
	Remember(rule policy.Rule) error
	// List returns the project's rules; Forget removes the one at index
	// i of List.
	List() ([]policy.Rule, error)
	Forget(i int) (policy.Rule, error)
}

// Factory builds a session's parts.
type Factory func(ctx context.Context, cfg SessionConfig) (Runtime, error)

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
	Defaults Settings
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
