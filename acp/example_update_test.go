package acp_test

import (
	"encoding/json"
	"fmt"

	"github.com/dsh-acp/dsh-acp/acp"
)

// A tool call card for a shell command, with Zed's display-only terminal,
// as Conn.SessionUpdate sends it: the discriminators come from the types,
// rawInput goes verbatim.
func ExampleSessionNotification_MarshalJSON() {
	call := acp.ToolCall{
		ToolCallID: "call-1",
		Title:      "go test ./...",
		Kind:       acp.ToolKindExecute,
		Status:     acp.ToolCallStatusPending,
		RawInput:   json.RawMessage(`{"command":"go test ./..."}`),
		Content:    []acp.ToolCallContent{acp.Terminal{TerminalID: "call-1"}},
		Meta:       &acp.ToolCallMeta{TerminalInfo: &acp.TerminalInfo{TerminalID: "call-1", Cwd: "/src"}},
	}
	data, err := acp.SessionNotification{SessionID: "s1", Update: call}.MarshalJSON()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(data))

	_, err = acp.SessionNotification{SessionID: "s1", Update: acp.AgentMessageChunk{}}.MarshalJSON()
	fmt.Println(err)
	// Output:
	// {"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call-1","title":"go test ./...","kind":"execute","status":"pending","rawInput":{"command":"go test ./..."},"content":[{"type":"terminal","terminalId":"call-1"}],"_meta":{"terminal_info":{"terminal_id":"call-1","cwd":"/src"}}}}
	// acp: a union value is nil: content block
}
