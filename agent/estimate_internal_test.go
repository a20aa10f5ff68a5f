package agent

import (
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// events numbers payloads as a log would: Seq from 1, and each TurnStarted
// opening the next turn.
func events(payloads ...session.Payload) []session.Event {
	out := make([]session.Event, len(payloads))
	turn := 0
	for i, p := range payloads {
		if _, ok := p.(session.TurnStarted); ok {
			turn++
		}
		out[i] = session.Event{Seq: int64(i + 1), Turn: turn, Payload: p}
	}
	return out
}

func user(text string) session.UserMessage {
	return session.UserMessage{Content: []presentation.ContentBlock{presentation.Text(text)}}
}

// The pieces of the hand-checked conversation below, with their sizes.
var (
	// "hello world!": 12 bytes, 3 tokens, + 4 framing = 7.
	handUser = user("hello world!")
	// "ok" 2 + "think" 5 + "call_1" 6 + "read" 4 + `{"a":1}` 7 = 24
	// bytes, 6 tokens, + 4 = 10.
	handAssistant = session.AssistantMessage{Text: "ok", Reasoning: "think",
		ToolCalls: []session.ToolCallRef{{ID: "call_1", Name: "read", Arguments: `{"a":1}`}}}
	// "call_1" 6 + "done" 4 = 10 bytes, 3 tokens, + 4 = 7.
	handResult = session.ToolResult{CallID: "call_1", Content: []presentation.ContentBlock{presentation.Text("done")}}
	// "You are dsh.": 12 bytes, 3 tokens.
	handSystem = "You are dsh."
	// "read" 4 + "Read a file." 12 + `{"type":"object"}` 17 = 33 bytes, 9
	// tokens, + 4 = 13.
	handTools = []llm.Tool{{Name: "read", Description: "Read a file.", Parameters: []byte(`{"type":"object"}`)}}
)

func TestTokenEstimateByHand(t *testing.T) {
	tests := []struct {
		name string
		got  int64
		want int64
	}{
		{"no text", textTokens(0), 0},
		{"one byte", textTokens(1), 1},
		{"four bytes", textTokens(4), 1},
		{"five bytes", textTokens(5), 2},
		{"user message", messageTokens(llm.UserMessage("hello world!")), 7},
		{"assistant message with a call", messageTokens(history(events(handAssistant))[0]), 10},
		{"tool result", messagesTokens(history(events(handResult))), 7},
		{"tools", toolsTokens(handTools), 13},
		{"whole request", requestTokens(handSystem, handTools, history(events(handUser, handAssistant, handResult))), 3 + 13 + 7 + 10 + 7},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %d tokens, want %d", tt.name, tt.got, tt.want)
		}
	}
}

func TestPromptEstimate(t *testing.T) {
	counted := session.Usage{PromptTokens: 100, CompletionTokens: 9}
	compacted := session.Compacted{Summary: "twelve bytes", Through: 0, Turns: 0}
	// The summary message: the label and the summary, + 4 framing.
	summaryTokens := textTokens(len(summaryLabel)+len("twelve bytes")) + 4
	fromText := func(ps ...session.Payload) int64 {
		return requestTokens(handSystem, handTools, history(events(ps...)))
	}
	tests := []struct {
		name     string
		payloads []session.Payload
		want     int64
	}{
		{"nothing counted: all from text",
			[]session.Payload{session.TurnStarted{}, handUser},
			3 + 13 + 7},
		{"the server's count plus what came after it",
			[]session.Payload{session.TurnStarted{}, handUser, counted, handAssistant, handResult},
			100 + 10 + 7},
		{"the latest count wins",
			[]session.Payload{session.TurnStarted{}, handUser, session.Usage{PromptTokens: 40}, handAssistant, handResult, counted, handAssistant, handResult},
			100 + 10 + 7},
		{"a count the step's message does not follow is not used",
			[]session.Payload{session.TurnStarted{}, handUser, counted, session.TurnEnded{Reason: session.StopError}, session.TurnStarted{}, handUser},
			fromText(session.TurnStarted{}, handUser, session.TurnEnded{}, session.TurnStarted{}, handUser)},
		{"a zero count is not used",
			[]session.Payload{session.TurnStarted{}, handUser, session.Usage{CompletionTokens: 5}, handAssistant, handResult},
			3 + 13 + 7 + 10 + 7},
		{"a summary request's count is not used",
			[]session.Payload{session.TurnStarted{}, handUser, counted, compacted},
			3 + 13 + summaryTokens + 7},
		{"a count before a compaction is not used",
			[]session.Payload{session.TurnStarted{}, handUser, counted, handAssistant, handResult, compacted},
			3 + 13 + summaryTokens + 7 + 10 + 7},
		{"content of every kind",
			[]session.Payload{session.TurnStarted{}, session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("see"), presentation.ImageBlock{}}}},
			3 + 13 + 4 + textTokens(len(presentation.JoinText([]presentation.ContentBlock{presentation.Text("see"), presentation.ImageBlock{}})))},
		{"a count after a compaction is used",
			[]session.Payload{session.TurnStarted{}, compacted, handUser, counted, handAssistant, handResult},
			100 + 10 + 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs := events(tt.payloads...)
			if got := promptEstimate(evs, handSystem, handTools); got != tt.want {
				t.Errorf("estimate = %d, want %d", got, tt.want)
			}
			if got, want := conversationTokens(evs), messagesTokens(history(evs)); got != want {
				t.Errorf("counted from the events: %d tokens; from the messages: %d", got, want)
			}
		})
	}
}

func TestHistoryAfterCompaction(t *testing.T) {
	evs := events(
		session.TurnStarted{}, user("first"), session.AssistantMessage{Text: "one"}, session.TurnEnded{Reason: session.StopEndTurn},
		session.TurnStarted{}, user("second"), session.AssistantMessage{Text: "two"}, session.TurnEnded{Reason: session.StopEndTurn},
		session.TurnStarted{}, session.Compacted{Summary: "S1", Through: 4, Turns: 1}, user("third"),
		session.Compacted{Summary: "S2", Through: 8, Turns: 2}, session.AssistantMessage{Text: "three"},
	)
	var got []string
	for _, m := range history(evs) {
		got = append(got, string(m.Role)+": "+m.Content)
	}
	want := []string{"user: " + summaryLabel + "S2", "user: third", "assistant: three"}
	if !slices.Equal(got, want) {
		t.Errorf("history = %q, want %q", got, want)
	}
}

// BenchmarkPromptEstimate measures the check made before every request
// of a session with a known context window, over a 1,000-turn log: with
// the server's count of the latest request, and from the text alone.
func BenchmarkPromptEstimate(b *testing.B) {
	var payloads []session.Payload
	for range 1000 {
		payloads = append(payloads, session.TurnStarted{}, handUser, session.Usage{PromptTokens: 1000}, handAssistant, handResult,
			session.Usage{PromptTokens: 1000}, session.AssistantMessage{Text: "done"}, session.TurnEnded{Reason: session.StopEndTurn})
	}
	counted := events(payloads...)
	uncounted := events(slices.DeleteFunc(slices.Clone(payloads), func(p session.Payload) bool { _, ok := p.(session.Usage); return ok })...)
	for _, bm := range []struct {
		name   string
		events []session.Event
	}{{"counted", counted}, {"from-text", uncounted}} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				promptEstimate(bm.events, handSystem, handTools)
			}
		})
	}
}
