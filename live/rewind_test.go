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

// TestRewindDropsTheLastCheckpointedTurn: a rewind reverts the turn the
// checkpoints name, logs what it put back, then a Rewound from that
// turn's start with the reply, then tells the model of the files left
// as they are; it refuses, changing nothing, without checkpoints, with
// none left, and for a turn a summary covers.
func TestRewindDropsTheLastCheckpointedTurn(t *testing.T) {
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
	second := log.Events()[3] // the TurnStarted of turn 2
	cp.latest = "before turn 2"
	r, err := rewind(s)
	if err != nil || r.Prompt != "second" || r.Turns != 1 || len(r.Files) != 1 {
		t.Fatalf("Rewind = %+v, %v", r, err)
	}
	var kinds []string
	var rewound session.Rewound
	for _, ev := range log.Events()[6:] {
		kinds = append(kinds, ev.Payload.Kind())
		if p, ok := ev.Payload.(session.Rewound); ok {
			rewound = p
		}
	}
	if want := []string{"files/restored", "conversation/rewound", "context/message"}; !slices.Equal(kinds, want) {
		t.Errorf("a rewind logged %v, want %v", kinds, want)
	}
	if rewound.From != second.Seq || rewound.Reply != "the reply" {
		t.Errorf("logged %+v, want From %d and the reply", rewound, second.Seq)
	}
	if p, ok := log.Events()[len(log.Events())-1].Payload.(session.ContextMessage); !ok || !containsAll(presentation.JoinText(p.Message.Content), "/p/b.txt") {
		t.Errorf("the model is not told of the file left as it is")
	}

	before := log.Len()
	refusals := []struct {
		name   string
		parts  live.Parts
		latest string
		want   error
	}{
		{"no checkpoints", live.Parts{Model: quickModel{}}, "", live.ErrNoUndo},
		{"none left", live.Parts{Model: quickModel{}, Log: log, Checkpoints: cp}, "", nil},
		{"summarized", live.Parts{Model: quickModel{}, Log: log, Checkpoints: cp}, "before turn 1", live.ErrRewindCompacted},
	}
	log.Append(session.Compacted{Summary: "s", Through: second.Seq - 1, Turns: 1})
	for _, tt := range refusals {
		cp.latest = tt.latest
		undos := len(slices.DeleteFunc(cp.recorded(), func(c string) bool { return c != "undo" }))
		r, err := rewind(newSession(t, tt.parts))
		if !errors.Is(err, tt.want) || r.Turn {
			t.Errorf("%s: Rewind = %+v, %v; want %v", tt.name, r, err, tt.want)
		}
		if now := len(slices.DeleteFunc(cp.recorded(), func(c string) bool { return c != "undo" })); now != undos {
			t.Errorf("%s: the files were reverted", tt.name)
		}
	}
	if log.Len() != before+1 { // the Compacted
		t.Errorf("a refused rewind logged %d events", log.Len()-before-1)
	}
}
