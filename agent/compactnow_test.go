package agent_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/session"
)

// /compact summarizes every completed turn but the last, at once, and the
// next request starts with the summary.
func TestCompactNow(t *testing.T) {
	w := newWindowModel(t, 1_000_000) // far from full: only the user asks
	h := windowHarness(t, w, nil)
	if n, err := h.agent.Compact(context.Background()); n != 0 || err != nil {
		t.Fatalf("Compact with nothing to summarize = %d, %v", n, err)
	}
	for _, text := range []string{"one", "two", "three", "four"} {
		if reason, err := h.prompt(context.Background(), text); err != nil || reason != session.StopEndTurn {
			t.Fatalf("Prompt = %q, %v", reason, err)
		}
	}
	n, err := h.agent.Compact(context.Background())
	if err != nil || n != 3 {
		t.Fatalf("Compact = %d, %v; want 3 turns summarized", n, err)
	}
	cs := compactions(h.log.Events())
	if len(cs) != 1 || cs[0].Turns != 3 {
		t.Fatalf("compactions = %+v", cs)
	}
	if reason, err := h.prompt(context.Background(), "five"); err != nil || reason != session.StopEndTurn {
		t.Fatalf("Prompt after /compact = %q, %v", reason, err)
	}
	problems, _, summaries := w.report()
	for _, p := range problems {
		t.Error(p)
	}
	if summaries != 1 {
		t.Errorf("%d summary requests, want 1", summaries)
	}
}

// /compact waits for no prompt: while one runs it is refused.
func TestCompactNowRefusedWhileBusy(t *testing.T) {
	started := make(chan struct{})
	h := newHarness(t, providerFunc(func(ctx context.Context, _ llm.Request) (*llm.Stream, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.prompt(ctx, "busy")
	}()
	<-started
	if _, err := h.agent.Compact(context.Background()); !errors.Is(err, agent.ErrBusy) {
		t.Errorf("Compact during a prompt = %v, want ErrBusy", err)
	}
	cancel()
	<-done
}
