package session_test

import (
	"slices"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/session"
)

// sinkFunc adapts a function to session.Sink.
type sinkFunc func(session.Event)

func (f sinkFunc) Write(ev session.Event) { f(ev) }

// TestLogSinkSeesEveryEventFirst: the sink gets each event, pieces one by
// one, in order, before any subscriber; nil detaches it.
func TestLogSinkSeesEveryEventFirst(t *testing.T) {
	log := session.NewLog(nil)
	var order []string
	log.Subscribe(func(ev session.Event) { order = append(order, "sub", ev.Payload.Kind()) })
	log.SetSink(sinkFunc(func(ev session.Event) { order = append(order, "sink", ev.Payload.Kind()) }))
	log.Append(session.AssistantChunk{Text: "a"})
	log.Append(session.AssistantChunk{Text: "b"})
	log.SetSink(nil)
	log.Append(session.TurnEnded{})
	want := []string{
		"sink", "assistant/chunk", "sub", "assistant/chunk",
		"sink", "assistant/chunk", "sub", "assistant/chunk",
		"sub", "turn/end",
	}
	if !slices.Equal(order, want) {
		t.Errorf("order = %v\nwant    %v", order, want)
	}
}

func TestRestoreLogContinuesNumbering(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	events := []session.Event{
		{Seq: 1, Time: at, Turn: 1, Payload: session.TurnStarted{}},
		{Seq: 2, Time: at, Turn: 1, Payload: session.AssistantChunk{Text: "merged run"}},
		{Seq: 7, Time: at, Turn: 1, Payload: session.TurnEnded{}},
	}
	tests := []struct {
		name             string
		events           []session.Event
		next             session.Payload
		wantSeq          int64
		wantTurn, wantLn int
	}{
		{"empty", nil, session.TurnStarted{}, 1, 1, 1},
		{"after a turn", events, session.TurnStarted{}, 8, 2, 4},
		{"outside a turn", events, session.TitleChanged{Title: "t"}, 8, 1, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := session.RestoreLog(tt.events, func() time.Time { return at })
			called := 0
			log.Subscribe(func(session.Event) { called++ })
			log.SetSink(sinkFunc(func(session.Event) { called++ }))
			if got := log.Events(); !slices.EqualFunc(got, tt.events, eventsEqual) {
				t.Errorf("Events = %v", kinds(got))
			}
			if called != 0 {
				t.Errorf("restored events reached %d watchers", called)
			}
			ev := log.Append(tt.next)
			if ev.Seq != tt.wantSeq || ev.Turn != tt.wantTurn || log.Len() != tt.wantLn || called != 2 {
				t.Errorf("next = seq %d turn %d, len %d, called %d", ev.Seq, ev.Turn, log.Len(), called)
			}
		})
	}
	// The log keeps its own copy.
	log := session.RestoreLog(events, nil)
	events[0].Seq = 99
	if log.Events()[0].Seq != 1 {
		t.Error("RestoreLog shares the caller's slice")
	}
}
