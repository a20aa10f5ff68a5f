package agent_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// hangGuard turns a hung turn into a failure; it never decides a result.
const hangGuard = 2 * time.Minute

// stuckTool registers "stuck", whose body blocks where its context cannot
// reach it (as a read of a FIFO does) until the test ends, when every
// body that started is released and waited for. entered gets a value each
// time a body starts. parallel says whether its calls may overlap.
func (h *harness) stuckTool(timeout time.Duration, parallel bool) (entered <-chan struct{}) {
	h.t.Helper()
	enteredc := make(chan struct{}, 8)
	release := make(chan struct{})
	returned := make(chan struct{}, 8)
	var started atomic.Int32
	h.t.Cleanup(func() {
		close(release)
		for range started.Load() {
			<-returned
		}
	})
	tool, err := registry.Define(registry.Spec[struct{}, string]{
		Name:            "stuck",
		Timeout:         timeout,
		ConcurrencySafe: func(struct{}) bool { return parallel },
		Handler: func(context.Context, *registry.Call, struct{}) (string, error) {
			started.Add(1)
			defer func() { returned <- struct{}{} }()
			enteredc <- struct{}{}
			<-release // ignores its context on purpose
			return "too late", nil
		},
	})
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.reg.Register(h.scope, tool); err != nil {
		h.t.Fatal(err)
	}
	return enteredc
}

// promptWithin runs a prompt and fails the test if it hangs.
func (h *harness) promptWithin(ctx context.Context, text string) (session.StopReason, error) {
	h.t.Helper()
	type outcome struct {
		reason session.StopReason
		err    error
	}
	done := make(chan outcome, 1)
	go func() {
		r, err := h.prompt(ctx, text)
		done <- outcome{r, err}
	}()
	select {
	case o := <-done:
		return o.reason, o.err
	case <-time.After(hangGuard):
		h.t.Fatalf("prompt %q hung on a stuck tool body", text)
		return "", nil
	}
}

func TestStuckToolBody(t *testing.T) {
	t.Run("a cancel ends the turn and the next prompt is served", func(t *testing.T) {
		model := llm.NewScripted(
			llm.Message{ToolCalls: []llm.ToolCall{{ID: "call_s", Name: "stuck", Arguments: `{}`}}},
			llm.Message{Content: "second answer"},
		)
		h := newHarness(t, model, nil)
		entered := h.stuckTool(0, false)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			<-entered
			cancel()
		}()
		reason, err := h.promptWithin(ctx, "read the fifo")
		if err != nil || reason != session.StopCancelled {
			t.Fatalf("first prompt = %q, %v; want cancelled", reason, err)
		}
		if r := h.results()["call_s"]; !r.IsError || r.Code != registry.CodeAborted {
			t.Errorf("stuck call result = %+v, want ABORTED", r)
		}
		reason, err = h.promptWithin(context.Background(), "next")
		if err != nil || reason != session.StopEndTurn {
			t.Fatalf("second prompt = %q, %v; want end_turn", reason, err)
		}
		want := []string{
			"turn/start", "user/message", "assistant/message", "call call_s", "result call_s", "turn/end",
			"turn/start", "user/message", "assistant/message", "turn/end",
		}
		if got := h.kinds(); !slices.Equal(got, want) {
			t.Errorf("events = %v\nwant %v", got, want)
		}
	})
	t.Run("a timeout fails the call and the turn goes on", func(t *testing.T) {
		model := llm.NewScripted(
			llm.Message{ToolCalls: []llm.ToolCall{{ID: "call_s", Name: "stuck", Arguments: `{}`}}},
			llm.Message{Content: "the read timed out"},
		)
		h := newHarness(t, model, nil)
		h.stuckTool(20*time.Millisecond, false)
		reason, err := h.promptWithin(context.Background(), "read the fifo")
		if err != nil || reason != session.StopEndTurn {
			t.Fatalf("prompt = %q, %v; want end_turn", reason, err)
		}
		if r := h.results()["call_s"]; !r.IsError || r.Code != registry.CodeToolTimeout {
			t.Errorf("stuck call result = %+v, want TOOL_TIMEOUT", r)
		}
		msgs := model.Requests()[1].Messages
		if last := msgs[len(msgs)-1]; last.Role != llm.RoleTool || last.ToolCallID != "call_s" {
			t.Errorf("the model was not told of the timeout: %+v", last)
		}
	})
	t.Run("timed-out parallel calls give their pool places back", func(t *testing.T) {
		model := llm.NewScripted(
			llm.Message{ToolCalls: []llm.ToolCall{
				{ID: "call_a", Name: "stuck", Arguments: `{}`},
				{ID: "call_b", Name: "stuck", Arguments: `{}`},
				{ID: "call_c", Name: "stuck", Arguments: `{}`},
			}},
			llm.Message{Content: "every read timed out"},
		)
		// One place: each call can start only once the one before it is
		// abandoned, while that call's body still holds its goroutine.
		h := newHarness(t, model, func(o *agent.Options) { o.MaxParallelToolCalls = 1 })
		h.stuckTool(20*time.Millisecond, true)
		reason, err := h.promptWithin(context.Background(), "read three fifos")
		if err != nil || reason != session.StopEndTurn {
			t.Fatalf("prompt = %q, %v; want end_turn", reason, err)
		}
		for _, id := range []string{"call_a", "call_b", "call_c"} {
			if r := h.results()[id]; !r.IsError || r.Code != registry.CodeToolTimeout {
				t.Errorf("%s result = %+v, want TOOL_TIMEOUT", id, r)
			}
		}
	})
}
