package session_test

import (
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
	}
	for want, p := range payloads {
		if p.Kind() != want {
			t.Errorf("%T.Kind() = %q, want %q", p, p.Kind(), want)
		}
	}
}
