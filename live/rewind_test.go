package live_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// loggingModel logs each turn's start and prompt, as the agent does.
type loggingModel struct{ log *session.Log }

func (m loggingModel) PromptSteered(_ context.Context, content []presentation.ContentBlock, _ agent.Steering) (session.StopReason, error) {
	m.log.Append(session.TurnStarted{})
	m.log.Append(session.UserMessage{Content: content})
	m.log.Append(session.TurnEnded{Reason: session.StopEndTurn})
	return session.StopEndTurn, nil
}

func (loggingModel) Compact(context.Context) (int, error) { return 0, nil }

// rewind runs a /rewind as a turn of s.
func rewind(s *live.Session) (live.Rewound, error) {
	var r live.Rewound
	_, err := s.Run(context.Background(), func(ctx context.Context, tr *live.Turn) (session.StopReason, error) {
		var err error
		r, err = tr.Rewind(ctx, func(live.Rewound) string { return "the reply" })
		return session.StopEndTurn, err
	})
	return r, err
}

// undos counts the Undo calls cp recorded.
func undos(cp *recordingCheckpoints) int {
	return len(slices.DeleteFunc(cp.recorded(), func(c string) bool { return c != "undo" }))
}

// kindsSince lists the kinds of the events of log after the first n.
func kindsSince(log *session.Log, n int) []string {
	var kinds []string
	for _, ev := range log.Events()[n:] {
		kinds = append(kinds, ev.Payload.Kind())
	}
	return kinds
}

// TestRewindDropsTheLastTurn: a rewind reverts the last turn when the
// checkpoints' latest is its own, logs what it put back, then a Rewound
// from that turn's start with the reply, then tells the model of the
// files left as they are; a turn whose checkpoint is gone is dropped
// without touching a file. It refuses, changing nothing, without
// checkpoints, with no turn left, and for a turn a summary covers.
func TestRewindDropsTheLastTurn(t *testing.T) {
	log := session.NewLog(nil)
	cp := &recordingCheckpoints{undone: live.Undone{Turn: true,
		Files:     []session.FileRestored{{Path: "/p/a.txt"}},
		Conflicts: []live.UndoConflict{{Path: "/p/b.txt", Reason: "it changed after the turn"}}}}
	s := newSession(t, live.Parts{Model: loggingModel{log}, Log: log, Checkpoints: cp})
	for _, p := range []string{"first", "second"} {
		if _, err := s.Prompt(context.Background(), []presentation.ContentBlock{presentation.Text(p)}); err != nil {
			t.Fatal(err)
		}
	}
	first, second := log.Events()[0], log.Events()[3] // the turns' TurnStarted

	cp.latest = "before turn 2"
	before := log.Len()
	r, err := rewind(s)
	if err != nil || !r.Dropped || r.Prompt != "second" || len(r.Files) != 1 || undos(cp) != 1 {
		t.Fatalf("Rewind = %+v, %v (%d undos)", r, err, undos(cp))
	}
	if got, want := kindsSince(log, before), []string{"files/restored", "conversation/rewound", "context/message"}; !slices.Equal(got, want) {
		t.Errorf("a rewind logged %v, want %v", got, want)
	}
	if p := log.Events()[before+1].Payload.(session.Rewound); p.From != second.Seq || p.Reply != "the reply" {
		t.Errorf("logged %+v, want From %d and the reply", p, second.Seq)
	}
	if p := log.Events()[log.Len()-1].Payload.(session.ContextMessage); !containsAll(presentation.JoinText(p.Message.Content), "/p/b.txt") {
		t.Errorf("the model is not told of the file left as it is")
	}

	cp.latest = "" // turn 1 was undone already
	before = log.Len()
	r, err = rewind(s)
	if err != nil || !r.Dropped || r.Prompt != "first" || r.Turn || undos(cp) != 1 {
		t.Fatalf("Rewind of a turn without its checkpoint = %+v, %v (%d undos)", r, err, undos(cp))
	}
	if got, want := kindsSince(log, before), []string{"conversation/rewound"}; !slices.Equal(got, want) {
		t.Errorf("a rewind without a checkpoint logged %v, want %v", got, want)
	}
	if p := log.Events()[before].Payload.(session.Rewound); p.From != first.Seq {
		t.Errorf("logged %+v, want From %d", p, first.Seq)
	}

	summarized := session.NewLog(nil)
	summarizedSession := newSession(t, live.Parts{Model: loggingModel{summarized}, Log: summarized, Checkpoints: cp})
	if _, err := summarizedSession.Prompt(context.Background(), []presentation.ContentBlock{presentation.Text("one")}); err != nil {
		t.Fatal(err)
	}
	summarized.Append(session.Compacted{Summary: "s", Through: summarized.Events()[1].Seq, Turns: 1})
	cp.latest = "before turn 1"
	refusals := []struct {
		name string
		s    *live.Session
		want error
	}{
		{"no checkpoints", newSession(t, live.Parts{Model: quickModel{}}), live.ErrNoUndo},
		{"no turn left", s, nil},
		{"summarized", summarizedSession, live.ErrRewindCompacted},
	}
	for _, tt := range refusals {
		before, logged := undos(cp), tt.s.Log().Len()
		r, err := rewind(tt.s)
		if !errors.Is(err, tt.want) || r.Dropped {
			t.Errorf("%s: Rewind = %+v, %v; want %v", tt.name, r, err, tt.want)
		}
		if undos(cp) != before || tt.s.Log().Len() != logged {
			t.Errorf("%s: a refused rewind changed something", tt.name)
		}
	}
}
