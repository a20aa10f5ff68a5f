// Package acptest tests ACP agents in process: a Client that talks to an
// acp.Serve (or any server) over io.Pipes, and a Schema that validates
// every message against its own definition in the ACP v1 JSON Schema
// shipped by the pinned npm package @agentclientprotocol/sdk (install it
// with `make deps`, which runs `npm ci --prefix e2e`; a missing schema
// fails the tests at once, it never skips: see RequireSchema).
//
//	func TestPrompt(t *testing.T) {
//		ctx := context.Background()
//		c := acptest.NewClient(t, func(conn *acp.Conn) acp.Agent { return bridge.New(conn) })
//		c.HandlePermission(func(req acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
//			return acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{
//				Selected: &acpsdk.RequestPermissionOutcomeSelected{OptionId: "allow-once"}}}
//		})
//		var s acpsdk.NewSessionResponse
//		if err := c.Call(ctx, "session/new", acpsdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []acpsdk.McpServer{}}, &s); err != nil {
//			t.Fatal(err)
//		}
//		var p acpsdk.PromptResponse
//		if err := c.Call(ctx, "session/prompt", acpsdk.PromptRequest{SessionId: s.SessionId,
//			Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock("hi")}}, &p); err != nil {
//			t.Fatal(err)
//		}
//		updates := c.Updates(s.SessionId) // every session/update, decoded, in order
//		_ = updates
//	}
//
// Every frame the server writes is checked as it arrives: it must be one
// JSON-RPC 2.0 message on its own line; requests and notifications must
// match the definition for their method, results the definition for the
// method of the request they answer, errors $/defs/Error. A message the
// stable schema.json refuses may match the unstable schema beside it
// (schema.unstable.json: plan_update, plan_removed, the subagent
// updates): it is valid only when the client advertised the capability it
// needs (clientCapabilities.plan, …) in its initialize request, so an
// unstable feature sent to a client that never asked for it fails the
// test too. A violation fails the test with t.Errorf. SendRaw sends arbitrary lines for
// bad-input tests; Handle installs a handler that may answer the server
// with anything.
//
// Load the Schema once per test binary and share it with WithSchema; the
// Client closes itself (and checks that every goroutine it started has
// ended) in t.Cleanup.
package acptest
