package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// turnStart is the Seq of the TurnStarted of turn n in log.
func turnStart(t *testing.T, log *session.Log, n int) int64 {
	t.Helper()
	for _, ev := range log.Events() {
		if _, ok := ev.Payload.(session.TurnStarted); ok && ev.Turn == n {
			return ev.Seq
		}
	}
	t.Fatalf("no turn %d in the log", n)
	return 0
}

// requestText is the text of a request's messages, role by role.
func requestText(req llm.Request) string {
	var parts []string
	for _, m := range req.Messages {
		parts = append(parts, string(m.Role)+":"+m.Content)
	}
	return strings.Join(parts, "|")
}

// TestARewoundTurnIsNotSent: after a Rewound, the model's requests — and
// a /compact's plan — no longer hold the turns it took back, nor what
// came after them up to the rewind; what follows it is sent.
func TestARewoundTurnIsNotSent(t *testing.T) {
	model := llm.NewScripted(
		llm.Message{Content: "one"},
		llm.Message{Content: "two"},
		llm.Message{Content: "three"},
		llm.Message{Content: "The user said first."},
	)
	h := newHarness(t, model, nil)
	ctx := context.Background()
	for _, p := range []string{"first", "second"} {
		if _, err := h.prompt(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	h.log.Append(session.ContextMessage{Message: registry.UserContext("before the rewind")})
	h.log.Append(session.Rewound{From: turnStart(t, h.log, 2), Reply: "dropped"})
	h.log.Append(session.ContextMessage{Message: registry.UserContext("after the rewind")})
	if _, err := h.prompt(ctx, "third"); err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	if got, want := requestText(reqs[2]), "user:first|assistant:one|user:after the rewind|user:third"; got != want {
		t.Errorf("the request after the rewind = %q, want %q", got, want)
	}
	// Two completed turns are left (first, third): /compact summarizes
	// the first, never the one taken back, nor counts the context after
	// the rewind (which has that turn's number) as a turn.
	if turns, err := h.agent.Compact(ctx); err != nil || turns != 1 {
		t.Errorf("Compact = %d, %v; want 1 turn", turns, err)
	}
	if summary := model.Requests()[3]; strings.Contains(requestText(summary), "second") {
		t.Errorf("the summary request holds the turn taken back: %q", requestText(summary))
	}
}
