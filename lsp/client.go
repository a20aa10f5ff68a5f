package lsp

import (
	"context"
	"log/slog"

	"go.lsp.dev/protocol"
)

// client answers what a language server asks of its client: it records
// published diagnostics and reported progress, logs messages, and gives
// neutral answers to requests an agent has no use for (configuration,
// edits).
type client struct {
	protocol.UnimplementedClient
	name  string
	roots []protocol.WorkspaceFolder
	diags *diagStore
	work  *work
	log   *slog.Logger
}

// PublishDiagnostics records a file's diagnostics.
func (c *client) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	version := int32(-1)
	if v, ok := p.Version.Get(); ok {
		version = v
	}
	c.diags.publish(p.URI.FsPath(), version, p.Diagnostics)
	return nil
}

// Configuration answers null for every item: the server's defaults.
func (c *client) Configuration(_ context.Context, p *protocol.ConfigurationParams) ([]protocol.LSPAny, error) {
	out := make([]protocol.LSPAny, len(p.Items))
	for i := range out {
		out[i] = protocol.LSPAny("null")
	}
	return out, nil
}

// WorkspaceFolders answers the session's roots.
func (c *client) WorkspaceFolders(context.Context) ([]protocol.WorkspaceFolder, error) {
	return c.roots, nil
}

// RegisterCapability accepts and ignores a registration.
func (c *client) RegisterCapability(context.Context, *protocol.RegistrationParams) error { return nil }

// UnregisterCapability accepts and ignores an unregistration.
func (c *client) UnregisterCapability(context.Context, *protocol.UnregistrationParams) error {
	return nil
}

// WorkDoneProgressCreate accepts a progress token; the progress itself
// comes with $/progress.
func (c *client) WorkDoneProgressCreate(context.Context, *protocol.WorkDoneProgressCreateParams) error {
	return nil
}

// Progress records the server's work in progress: the tools wait while
// it loads.
func (c *client) Progress(_ context.Context, p *protocol.ProgressParams) error {
	began, err := c.work.update(p)
	switch {
	case err != nil:
		c.log.Warn("language server progress unreadable", "server", c.name, "err", err)
	case began:
		doing, _ := c.work.state()
		c.log.Debug("language server at work", "server", c.name, "work", doing)
	}
	return nil
}

// ShowMessageRequest logs the message and picks no action.
func (c *client) ShowMessageRequest(_ context.Context, p *protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	c.log.Debug("language server message", "server", c.name, "message", p.Message)
	return nil, nil
}

// ShowMessage logs the message.
func (c *client) ShowMessage(_ context.Context, p *protocol.ShowMessageParams) error {
	c.log.Debug("language server message", "server", c.name, "message", p.Message)
	return nil
}

// LogMessage logs the message at debug level.
func (c *client) LogMessage(_ context.Context, p *protocol.LogMessageParams) error {
	c.log.Debug("language server log", "server", c.name, "message", p.Message)
	return nil
}

// ApplyEdit refuses: the agent changes files through its own tools only.
func (c *client) ApplyEdit(context.Context, *protocol.ApplyWorkspaceEditParams) (*protocol.ApplyWorkspaceEditResult, error) {
	reason := "dsh-acp applies no edits from language servers"
	return &protocol.ApplyWorkspaceEditResult{Applied: false, FailureReason: &reason}, nil
}

// DiagnosticRefresh is accepted; the next pull gets fresh diagnostics.
func (c *client) DiagnosticRefresh(context.Context) error { return nil }
