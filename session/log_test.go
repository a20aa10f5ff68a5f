package session_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

func TestLogNumbersEventsAndTurns(t *testing.T) {
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	log := session.NewLog(func() time.Time { return clock })
	var seen []session.Event
	stop := log.Subscribe(func(ev session.Event) { seen = append(seen, ev) })

	log.Append(session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("before any turn")}})
	log.Append(session.TurnStarted{})
	log.Append(session.AssistantChunk{Text: "hi"})
	log.Append(session.TurnEnded{Reason: session.StopEndTurn})
	log.Append(session.TurnStarted{})
	stop()
	stop()
	last := log.Append(session.TurnEnded{Reason: session.StopCancelled})

	events := log.Events()
	wantTurns := []int{0, 1, 1, 1, 2, 2}
	if len(events) != len(wantTurns) {
		t.Fatalf("events = %d, want %d", len(events), len(wantTurns))
	}
	for i, ev := range events {
		if ev.Seq != int64(i+1) || ev.Turn != wantTurns[i] || !ev.Time.Equal(clock) {
			t.Errorf("event %d = seq %d turn %d time %v", i, ev.Seq, ev.Turn, ev.Time)
		}
	}
	if len(seen) != 5 {
		t.Errorf("subscriber saw %d events, want 5 (it stopped before the last)", len(seen))
	}
	if last.Seq != 6 || log.Len() != 6 || log.Turn() != 2 {
		t.Errorf("last = %+v, len %d, turn %d", last, log.Len(), log.Turn())
	}
	// Events returns a copy.
	events[0].Seq = 99
	if log.Events()[0].Seq != 1 {
		t.Errorf("Events shares its slice")
	}
}

func TestLogConcurrentAppendsAreTotallyOrdered(t *testing.T) {
	log := session.NewLog(nil)
	var mu sync.Mutex
	var seqs []int64
	log.Subscribe(func(ev session.Event) {
		mu.Lock()
		seqs = append(seqs, ev.Seq)
		mu.Unlock()
	})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 100 {
				log.Append(session.ToolOutput{CallID: string(rune('a' + i)), Output: "x"})
			}
		})
	}
	wg.Wait()
	if len(seqs) != 800 {
		t.Fatalf("seen %d events", len(seqs))
	}
	for i, s := range seqs {
		if s != int64(i+1) {
			t.Fatalf("subscriber saw seq %d at position %d", s, i)
		}
	}
}

func TestPayloadKinds(t *testing.T) {
	payloads := map[string]session.Payload{
		"turn/start": session.TurnStarted{}, "user/message": session.UserMessage{},
		"assistant/chunk": session.AssistantChunk{}, "assistant/message": session.AssistantMessage{},
		"tool/call": session.ToolCall{}, "tool/start": session.ToolStarted{}, "tool/output": session.ToolOutput{},
		"tool/result": session.ToolResult{}, "context/message": session.ContextMessage{}, "plan": session.PlanUpdated{},
		"llm/retry": session.ModelRetry{}, "usage": session.Usage{}, "turn/end": session.TurnEnded{},
		"subagent/start": session.SubagentStarted{}, "subagent/event": session.SubagentEvent{}, "subagent/end": session.SubagentEnded{},
		"conversation/rewound": session.Rewound{},
	}
	for want, p := range payloads {
		if p.Kind() != want {
			t.Errorf("%T.Kind() = %q, want %q", p, p.Kind(), want)
		}
	}
}

// TestLogKeepsStreamedRunsAsOneEvent: subscribers see every piece as it
// is appended, numbered in order; the log keeps each ended run of pieces
// of one kind (text, reasoning, one call's output) as one event with the
// run's text and its first piece's Seq.
func TestLogKeepsStreamedRunsAsOneEvent(t *testing.T) {
	log := session.NewLog(nil)
	var seen []int64
	log.Subscribe(func(ev session.Event) { seen = append(seen, ev.Seq) })
	appends := []session.Payload{
		session.TurnStarted{}, // 1
		session.AssistantChunk{Text: "Let ", Reasoning: true},   // 2
		session.AssistantChunk{Text: "me ", Reasoning: true},    // 3
		session.AssistantChunk{Text: "think.", Reasoning: true}, // 4
		session.AssistantChunk{Text: "Hello "},                  // 5
		session.AssistantChunk{Text: "there."},                  // 6
		session.AssistantMessage{Text: "Hello there."},          // 7
		session.ToolOutput{CallID: "a", Output: "one\n"},        // 8
		session.ToolOutput{CallID: "a", Output: "two\n"},        // 9
		session.ToolOutput{CallID: "b", Output: "other\n"},      // 10
		session.ToolOutput{CallID: "a", Output: "three\n"},      // 11
		session.AssistantChunk{Text: "open "},                   // 12
		session.AssistantChunk{Text: "run"},                     // 13
	}
	for _, p := range appends {
		log.Append(p)
	}
	type kept struct {
		seq  int64
		kind string
		text string
	}
	var got []kept
	for _, ev := range log.Events() {
		k := kept{seq: ev.Seq, kind: ev.Payload.Kind()}
		switch p := ev.Payload.(type) {
		case session.AssistantChunk:
			k.text = fmt.Sprintf("%v:%s", p.Reasoning, p.Text)
		case session.ToolOutput:
			k.text = p.CallID + ":" + p.Output
		}
		got = append(got, k)
	}
	want := []kept{
		{1, "turn/start", ""},
		{2, "assistant/chunk", "true:Let me think."},
		{5, "assistant/chunk", "false:Hello there."},
		{7, "assistant/message", ""},
		{8, "tool/output", "a:one\ntwo\n"},
		{10, "tool/output", "b:other\n"},
		{11, "tool/output", "a:three\n"},
		// The run still streaming is kept piece by piece until it ends.
		{12, "assistant/chunk", "false:open "},
		{13, "assistant/chunk", "false:run"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("kept events\n got %v\nwant %v", got, want)
	}
	if log.Len() != len(want) {
		t.Errorf("Len = %d, want %d", log.Len(), len(want))
	}
	if len(seen) != len(appends) || seen[len(seen)-1] != int64(len(appends)) {
		t.Errorf("subscriber saw %v", seen)
	}
	if last := log.Append(session.TurnEnded{}); last.Seq != 14 {
		t.Errorf("next Seq = %d, want 14", last.Seq)
	}
	if events := log.Events(); len(events) != 9 {
		t.Errorf("after the run ended: %d events, want 9 (8 and the merged run)", len(events))
	}
}

// TestLogMergesAChildsRunsApart: a child agent's streamed pieces merge
// as the child's own log would merge them, and never with the parent's
// or another child's.
func TestLogMergesAChildsRunsApart(t *testing.T) {
	log := session.NewLog(nil)
	child := func(id string, p session.Payload) session.Payload {
		return session.SubagentEvent{ID: id, CallID: "task", Payload: p}
	}
	for _, p := range []session.Payload{
		child("a", session.AssistantChunk{Text: "one "}),
		child("a", session.AssistantChunk{Text: "two"}),
		child("b", session.AssistantChunk{Text: "other"}),
		session.AssistantChunk{Text: "parent"},
		child("a", session.ToolOutput{CallID: "c", Output: "x"}),
		child("a", session.ToolOutput{CallID: "c", Output: "y"}),
		child("a", session.TurnEnded{}),
	} {
		log.Append(p)
	}
	var got []string
	for _, ev := range log.Events() {
		got = append(got, fmt.Sprintf("%d %#v", ev.Seq, ev.Payload))
	}
	want := []string{
		fmt.Sprintf("1 %#v", child("a", session.AssistantChunk{Text: "one two"})),
		fmt.Sprintf("3 %#v", child("b", session.AssistantChunk{Text: "other"})),
		fmt.Sprintf("4 %#v", session.AssistantChunk{Text: "parent"}),
		fmt.Sprintf("5 %#v", child("a", session.ToolOutput{CallID: "c", Output: "xy"})),
		fmt.Sprintf("7 %#v", child("a", session.TurnEnded{})),
	}
	if !slices.Equal(got, want) {
		t.Errorf("kept events\n got %q\nwant %q", got, want)
	}
}
