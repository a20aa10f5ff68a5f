package agent_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// scriptedSteering hands out, at each Take, the next of its batches, and
// records the last flag of each Take.
type scriptedSteering struct {
	mu      sync.Mutex
	batches [][]string
	lasts   []bool
}

func (s *scriptedSteering) Take(last bool) [][]presentation.ContentBlock {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lasts = append(s.lasts, last)
	if len(s.batches) == 0 {
		return nil
	}
	batch := s.batches[0]
	s.batches = s.batches[1:]
	var out [][]presentation.ContentBlock
	for _, text := range batch {
		out = append(out, []presentation.ContentBlock{presentation.Text(text)})
	}
	return out
}

// lastUserText is the text of the last user message of a request.
func lastUserText(req llm.Request) string {
	for _, m := range slices.Backward(req.Messages) {
		if m.Role == llm.RoleUser {
			return m.Content
		}
	}
	return ""
}

func TestSteeringReachesTheNextModelRequest(t *testing.T) {
	model := llm.NewScripted(
		llm.Message{ToolCalls: []llm.ToolCall{call("par", workArgs{ID: "a"})}},
		llm.Message{Content: "switched to v2"},
	)
	h := newHarness(t, model, nil)
	h.work("par", true)
	steering := &scriptedSteering{batches: [][]string{{"use the v2 API instead"}}}
	reason, err := h.agent.PromptSteered(context.Background(), []presentation.ContentBlock{presentation.Text("go")}, steering)
	if err != nil || reason != session.StopEndTurn {
		t.Fatalf("PromptSteered = %q, %v", reason, err)
	}
	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if got := lastUserText(reqs[0]); got != "go" {
		t.Errorf("the first request's user text = %q", got)
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != llm.RoleUser || last.Content != "use the v2 API instead" {
		t.Errorf("the second request ends with %+v, want the steered message after the tool result", last)
	}
	var steered int
	for _, ev := range h.log.Events() {
		if m, ok := ev.Payload.(session.UserMessage); ok && m.Steered {
			steered++
		}
	}
	if steered != 1 {
		t.Errorf("%d steered messages logged, want 1", steered)
	}
	if want := []bool{false, true}; !slices.Equal(steering.lasts, want) {
		t.Errorf("Take was called with last = %v, want %v (after the batch, then at the end)", steering.lasts, want)
	}
}

func TestSteeringAsTheModelFinishesContinuesTheTurn(t *testing.T) {
	model := llm.NewScripted(llm.Message{Content: "done"}, llm.Message{Content: "done, and short"})
	h := newHarness(t, model, nil)
	steering := &scriptedSteering{batches: [][]string{{"keep it short"}}}
	reason, err := h.agent.PromptSteered(context.Background(), []presentation.ContentBlock{presentation.Text("go")}, steering)
	if err != nil || reason != session.StopEndTurn {
		t.Fatalf("PromptSteered = %q, %v", reason, err)
	}
	reqs := model.Requests()
	if len(reqs) != 2 || lastUserText(reqs[1]) != "keep it short" {
		t.Fatalf("requests = %d, the second's user text %q; want the steered message read", len(reqs), lastUserText(reqs[len(reqs)-1]))
	}
}
