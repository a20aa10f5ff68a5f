package acp

import (
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"
	"go.lsp.dev/jsonrpc2"
)

// BenchmarkEncodeAgentMessageChunk measures encoding one session/update
// notification holding an agent_message_chunk into a frame, the way
// Conn.SessionUpdate and the stream do it.
func BenchmarkEncodeAgentMessageChunk(b *testing.B) {
	n := SessionNotification{
		SessionID: "sess-0123456789",
		Update:    AgentMessageChunk{Content: Text("Here is the change you asked for: the parser now skips blank lines.")},
	}
	var frame []byte
	b.ReportAllocs()
	for b.Loop() {
		params, err := n.MarshalJSON()
		if err != nil {
			b.Fatal(err)
		}
		frame = appendNotificationFrame(frame[:0], acpsdk.ClientMethodSessionUpdate, params)
	}
	if len(frame) == 0 {
		b.Fatal("empty frame")
	}
}

// BenchmarkEncodeAgentMessageChunkSDK is the same through the SDK's own
// MarshalJSON, for comparison.
func BenchmarkEncodeAgentMessageChunkSDK(b *testing.B) {
	n := acpsdk.SessionNotification{
		SessionId: "sess-0123456789",
		Update: acpsdk.SessionUpdate{AgentMessageChunk: &acpsdk.SessionUpdateAgentMessageChunk{
			Content: acpsdk.TextBlock("Here is the change you asked for: the parser now skips blank lines."),
		}},
	}
	var frame []byte
	b.ReportAllocs()
	for b.Loop() {
		params, err := marshalJSON(n)
		if err != nil {
			b.Fatal(err)
		}
		frame = appendNotificationFrame(frame[:0], acpsdk.ClientMethodSessionUpdate, params)
	}
}

// appendNotificationFrame appends the NDJSON frame of a notification, as
// ndjsonStream.Write emits it.
func appendNotificationFrame(dst []byte, method string, params []byte) []byte {
	return append(jsonrpc2.AppendMessage(dst, jsonrpc2.NewNotification(method, params)), '\n')
}
