package live_test

import (
	"context"
	"testing"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// steeredModel waits, once running, until told to take what was sent,
// hands that back, then ends (or waits for cancel when stay is set).
type steeredModel struct {
	started chan struct{}
	take    chan bool // the last flag of the Take to make
	took    chan [][]presentation.ContentBlock
	stay    bool
}

func (m *steeredModel) PromptSteered(ctx context.Context, _ []presentation.ContentBlock, steering agent.Steering) (session.StopReason, error) {
	m.started <- struct{}{}
	for {
		select {
		case last, ok := <-m.take:
			if !ok {
				if m.stay {
					<-ctx.Done()
					return session.StopCancelled, nil
				}
				return session.StopEndTurn, nil
			}
			m.took <- steering.Take(last)
		case <-ctx.Done():
			return session.StopCancelled, nil
		}
	}
}

func (m *steeredModel) Compact(context.Context) (int, error) { return 0, nil }

func newSteeredModel() *steeredModel {
	return &steeredModel{started: make(chan struct{}, 1), take: make(chan bool), took: make(chan [][]presentation.ContentBlock)}
}

func text(s string) []presentation.ContentBlock {
	return []presentation.ContentBlock{presentation.Text(s)}
}

func TestSteerReachesTheRunningModelTurn(t *testing.T) {
	model := newSteeredModel()
	s := newSession(t, live.Parts{Model: model})
	if s.Steer(text("too early")) {
		t.Error("Steer with no turn running reported it was taken")
	}
	answer := prompted(s, "go")
	<-model.started
	if !s.Steer(text("use the v2 API")) || !s.Steer(text("and keep it short")) {
		t.Fatal("Steer during a model turn was refused")
	}
	model.take <- false
	got := <-model.took
	if len(got) != 2 || presentation.JoinText(got[0]) != "use the v2 API" || presentation.JoinText(got[1]) != "and keep it short" {
		t.Errorf("the model took %v, want both messages in order", got)
	}
	model.take <- true // the model is done: nothing waits, so the inbox closes
	if got := <-model.took; len(got) != 0 {
		t.Errorf("the last take got %v", got)
	}
	if s.Steer(text("too late")) {
		t.Error("Steer after the turn took its last reported it was taken")
	}
	close(model.take)
	if got := <-answer; got != session.StopEndTurn {
		t.Errorf("the turn ended %q", got)
	}
	for _, ev := range s.Log().Events() {
		if m, ok := ev.Payload.(session.UserMessage); ok && m.Steered {
			t.Errorf("a message the model took was logged again: %v", m.Content)
		}
	}
}

func TestSteeringATurnThatIsCancelledIsKept(t *testing.T) {
	model := newSteeredModel()
	model.stay = true
	s := newSession(t, live.Parts{Model: model})
	answer := prompted(s, "go")
	<-model.started
	if !s.Steer(text("never read")) {
		t.Fatal("Steer during a model turn was refused")
	}
	s.Cancel()
	if got := <-answer; got != session.StopCancelled {
		t.Errorf("the turn ended %q", got)
	}
	var kept []string
	for _, ev := range s.Log().Events() {
		if m, ok := ev.Payload.(session.UserMessage); ok && m.Steered {
			kept = append(kept, presentation.JoinText(m.Content))
		}
	}
	if len(kept) != 1 || kept[0] != "never read" {
		t.Errorf("steered messages logged = %q, want the one the model never took", kept)
	}
}
