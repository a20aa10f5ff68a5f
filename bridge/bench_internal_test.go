package bridge

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/session"
)

// BenchmarkMapAndEncodeMessageChunk measures what each streamed text delta
// costs the bridge: mapping the event to its update and encoding the
// session/update params.
func BenchmarkMapAndEncodeMessageChunk(b *testing.B) {
	m := NewMapper(MapperOptions{Cwd: "/home/dev/project"})
	ev := session.Event{Seq: 42, Payload: session.AssistantChunk{Text: "Let me read the file first. "}}
	b.ReportAllocs()
	for b.Loop() {
		for _, u := range m.Map(ev) {
			if _, err := (acp.SessionNotification{SessionID: "0b6c1e4e-3c1f-4a8e-9d3b-2f6f1f0a9c11", Update: u}).MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
