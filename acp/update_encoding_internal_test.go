package acp

import (
	"reflect"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"
	"go.lsp.dev/jsonrpc2"
)

// TestMirrorsMatchSDK fails when an SDK upgrade changes a struct that
// update_encoding.go mirrors: the mirror must have the same JSON fields,
// in the same order, or fields would be dropped silently.
func TestMirrorsMatchSDK(t *testing.T) {
	tests := []struct {
		mirror, sdk any
	}{
		{sessionNotificationJSON{}, acpsdk.SessionNotification{}},
		{chunkJSON{}, acpsdk.SessionUpdateAgentMessageChunk{}},
		{textChunkJSON{}, acpsdk.SessionUpdateAgentMessageChunk{}},
		{textChunkNotificationJSON{}, acpsdk.SessionNotification{}},
		{chunkJSON{}, acpsdk.SessionUpdateAgentThoughtChunk{}},
		{chunkJSON{}, acpsdk.SessionUpdateUserMessageChunk{}},
		{toolCallJSON{}, acpsdk.SessionUpdateToolCall{}},
		{toolCallUpdateJSON{}, acpsdk.SessionToolCallUpdate{}},
		{requestPermissionJSON{}, acpsdk.RequestPermissionRequest{}},
		{toolCallUpdateBodyJSON{}, acpsdk.ToolCallUpdate{}},
		{toolCallContentContentJSON{}, acpsdk.ToolCallContentContent{}},
	}
	for _, tt := range tests {
		m, s := reflect.TypeOf(tt.mirror), reflect.TypeOf(tt.sdk)
		t.Run(s.Name(), func(t *testing.T) {
			if got, want := jsonTags(m), jsonTags(s); !reflect.DeepEqual(got, want) {
				t.Errorf("%s fields %v, SDK %s fields %v", m.Name(), got, s.Name(), want)
			}
		})
	}
}

// jsonTags lists a struct's json tags in field order.
func jsonTags(t reflect.Type) []string {
	var tags []string
	for f := range t.Fields() {
		tags = append(tags, f.Tag.Get("json"))
	}
	return tags
}

// BenchmarkEncodeAgentMessageChunk measures encoding one session/update
// notification holding an agent_message_chunk into a frame, the way
// Conn.SessionUpdate and the stream do it.
func BenchmarkEncodeAgentMessageChunk(b *testing.B) {
	n := acpsdk.SessionNotification{
		SessionId: "sess-0123456789",
		Update: acpsdk.SessionUpdate{AgentMessageChunk: &acpsdk.SessionUpdateAgentMessageChunk{
			Content: acpsdk.TextBlock("Here is the change you asked for: the parser now skips blank lines."),
		}},
	}
	var frame []byte
	b.ReportAllocs()
	for b.Loop() {
		params, err := encodeSessionNotification(n)
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
