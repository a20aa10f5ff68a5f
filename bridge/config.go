package bridge

import (
	"context"
	"log/slog"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/pipeline"
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
}

// Runtime is a session's running parts.
type Runtime struct {
	Agent *agent.Agent
	Log   *session.Log
	// Close stops the session's background work (jobs); it is called once,
	// when the session ends.
	Close func()
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
	// updates; 0 sends none.
	ContextWindow int64
	// Logger receives what the bridge cannot tell the client.
	Logger *slog.Logger
}
