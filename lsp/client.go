package lsp

import (
	"context"
	"log/slog"

	"go.lsp.dev/protocol"
)

// client answers what a language server asks of its client: it records
// published diagnostics, logs messages, and gives neutral answers to
// requests an agent has no use for (configuration, progress, edits).
type client struct {
	protocol.UnimplementedClient
	name  string
	roots []protocol.WorkspaceFolder
	diags *diagStore
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

// WorkDoneProgressCreate accepts a progress token; progress is not shown.
func (c *client) WorkDoneProgressCreate(context.Context, *protocol.WorkDoneProgressCreateParams) error {
	return nil
}

// ShowMessageRequest logs the message and picks no action.
func (c *client) ShowMessageRequest(_ context.Context, p *protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	c.log.Info("language server message", "server", c.name, "message", p.Message)
	return nil, nil
}

// ShowMessage logs the message.
func (c *client) ShowMessage(_ context.Context, p *protocol.ShowMessageParams) error {
	c.log.Info("language server message", "server", c.name, "message", p.Message)
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
