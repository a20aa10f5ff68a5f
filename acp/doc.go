// Package acp is dsh-acp's Agent Client Protocol (ACP v1) wire: the
// newline-delimited JSON-RPC 2.0 connection an editor opens on the agent's
// stdin and stdout, built on go.lsp.dev/jsonrpc2. Inbound messages are
// decoded into the types of github.com/coder/acp-go-sdk; what the agent
// sends is this package's own closed vocabulary (Update and its variants,
// ContentBlock, ToolCallContent, RequestPermissionRequest), each type
// writing its own discriminator and encoded in one pass of encoding/json.
// A client reads the same vocabulary back: SessionNotification,
// RequestPermissionRequest and NewSessionResponse decode with
// encoding/json into the variants that were sent, and anything outside
// the vocabulary is an error (the demo's client is built on this).
//
// An agent implements Agent; Serve decodes each request into the SDK type,
// calls the agent, and encodes the answer. The Conn that Serve hands the
// agent calls the client back:
//
//	type echo struct{ client *acp.Conn }
//
//	func (e *echo) Prompt(ctx context.Context, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
//		for _, block := range req.Prompt {
//			if block.Text == nil {
//				continue
//			}
//			err := e.client.SessionUpdate(ctx, string(req.SessionId), acp.AgentMessageChunk{Content: acp.Text(block.Text.Text)})
//			if err != nil {
//				return acpsdk.PromptResponse{}, err
//			}
//		}
//		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, nil
//	}
//	// … Initialize, Authenticate, NewSession, Cancel
//
//	err := acp.Serve(ctx, os.Stdin, os.Stdout,
//		func(c *acp.Conn) acp.Agent { return &echo{client: c} },
//		acp.Options{Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))})
//
// What callers may rely on:
//
//   - Bad input never ends the connection. Blank lines are skipped; a
//     line that is not JSON is answered -32700 with id null; a batch, a
//     non-message or a line over 32 MiB is answered -32600 (a line over
//     the limit with the request's id when its first bytes hold it);
//     unknown methods (including ACP methods not implemented yet, e.g.
//     session/load) -32601; params that do not fit the SDK type -32602;
//     unknown notifications are ignored.
//   - initialize comes first: every other request before a successful
//     initialize is answered -32600. initialize is served on the read
//     loop, so whatever follows it on the wire sees its effects.
//   - A request whose id is in use by a request still in flight is
//     answered -32600 and never reaches the Agent; the first one goes on.
//   - A frame costs about twice its size in memory while it is served
//     (its params and their decoded value): a prompt of megabytes is read
//     into one buffer and decoded once.
//   - Requests run concurrently, so a Prompt can wait on
//     RequestPermission or ReadTextFile while session/cancel and other
//     requests are served. Notifications are handled in wire order.
//   - Every error on the wire is a *jsonrpc2.Error with an ACP code (see
//     InvalidParams, ResourceNotFound, RequestCancelled, …); a plain error
//     is -32603 and a recovered panic is -32603.
//   - $/cancel_request and session/cancel cancel the matching handler
//     contexts (context.Cause says which); a client disconnect cancels all
//     of them before Serve returns.
//   - When Serve's ctx is cancelled, every request it began to serve is
//     answered on the output before Serve returns (a Prompt that returns
//     "cancelled" as the shutdown cancels it is answered so), within
//     Options.ShutdownGrace; requests read meanwhile are refused -32603.
//     A client that stopped reading cannot hold the shutdown past the
//     grace.
//   - Only frames are written to the output; all diagnostics go to the
//     slog.Logger in Options.
//
// The acptest package drives Serve in tests and validates every frame
// against the ACP JSON Schema.
package acp
