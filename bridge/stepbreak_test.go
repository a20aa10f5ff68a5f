package bridge_test

import (
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// The agent's text before a tool call ends with a paragraph break, so a
// client that joins the text of a turn's steps (the AI SDK provider:
// "I wrote the file.All done") reads them apart; text that ends with one
// already gets none, and a new turn starts with nothing to end.
func TestTextBeforeAToolCallEndsItsParagraph(t *testing.T) {
	text := func(s string) session.Payload { return session.AssistantChunk{Text: s} }
	thought := func(s string) session.Payload { return session.AssistantChunk{Text: s, Reasoning: true} }
	call := func(id string) session.Payload {
		return session.ToolCall{CallID: id, Name: "read", Arguments: `{}`, View: presentation.GenericCallView{Title: "read"}}
	}
	tests := []struct {
		name   string
		events []session.Payload
		want   string // the agent's text, a | for each tool call
	}{
		{"a sentence", []session.Payload{text("I wrote the "), text("file."), call("a"), text("All done")}, "I wrote the file.\n\n|All done"},
		{"a line", []session.Payload{text("Reading it:\n"), call("a")}, "Reading it:\n\n|"},
		{"a paragraph", []session.Payload{text("Reading it.\n\n"), call("a")}, "Reading it.\n\n|"},
		{"CRLF lines", []session.Payload{text("Reading it.\r\n"), call("a")}, "Reading it.\r\n\n|"},
		{"no text", []session.Payload{thought("hm"), call("a"), call("b")}, "||"},
		{"once per run of text", []session.Payload{text("Two reads."), call("a"), call("b"), text("Done.")}, "Two reads.\n\n||Done."},
		{"thoughts between", []session.Payload{text("Let me look."), thought("which file?"), call("a")}, "Let me look.\n\n|"},
		{"a new turn", []session.Payload{text("Answered."), session.TurnStarted{}, call("a")}, "Answered.|"},
		{"a card of the session's own", []session.Payload{text("Answered."), session.FilesRestored{Files: []session.FileRestored{{Path: "/w/a"}}}}, "Answered.|"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, replay := range []bool{false, true} {
				m := bridge.NewMapper(bridge.MapperOptions{Cwd: "/w", Replay: replay})
				var got strings.Builder
				for i, p := range tt.events {
					for _, u := range m.Map(session.Event{Seq: int64(i + 1), Payload: p}) {
						switch v := u.(type) {
						case acp.AgentMessageChunk:
							got.WriteString(v.Content.(acp.TextContent).Text)
						case acp.ToolCall:
							got.WriteString("|")
						}
					}
				}
				if got.String() != tt.want {
					t.Errorf("replay %t: text %q, want %q", replay, got.String(), tt.want)
				}
			}
		})
	}
}
