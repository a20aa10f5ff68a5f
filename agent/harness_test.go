package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// harness is an agent over a scripted model and test tools.
type harness struct {
	t        testing.TB
	reg      *registry.Registry
	pipe     *pipeline.Pipeline
	scope    *registry.Scope
	log      *session.Log
	provider llm.Provider
	agent    *agent.Agent

	mu       sync.Mutex
	timeline []string
	running  int
	peak     int
	// changed is closed, and replaced, whenever timeline, running or peak
	// change, so a waiter wakes on the event instead of polling.
	changed chan struct{}
}

func newHarness(t testing.TB, provider llm.Provider, edit func(*agent.Options)) *harness {
	t.Helper()
	h := &harness{t: t, reg: registry.New(), log: session.NewLog(nil), provider: provider, changed: make(chan struct{})}
	h.pipe = pipeline.New(h.reg, pipeline.Options{})
	h.scope = h.reg.NewScope("session", nil)
	opts := agent.Options{
		Provider: provider, Pipeline: h.pipe, Scope: h.scope, Log: h.log,
		Cwd: "/home/dev/project", Platform: "linux/amd64",
		Now: func() time.Time { return time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC) },
	}
	if edit != nil {
		edit(&opts)
	}
	a, err := agent.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.agent = a
	return h
}

// broadcast wakes every waiter; h.mu is held.
func (h *harness) broadcast() {
	close(h.changed)
	h.changed = make(chan struct{})
}

func (h *harness) note(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.timeline = append(h.timeline, s)
	h.broadcast()
}

func (h *harness) enter() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.running++
	h.peak = max(h.peak, h.running)
	h.broadcast()
}

func (h *harness) leave() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.running--
	h.broadcast()
}

// waitUntil blocks until cond, called with h.mu held, is true after some
// change of the harness's state. It returns ctx's error if ctx ends first,
// and an error naming what was awaited if hangGuard passes first: the
// guard only turns a hang into a failure, it never decides a result.
func (h *harness) waitUntil(ctx context.Context, what string, cond func() bool) error {
	guard := time.NewTimer(hangGuard)
	defer guard.Stop()
	for {
		h.mu.Lock()
		ok, changed := cond(), h.changed
		h.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		case <-guard.C:
			err := fmt.Errorf("still waiting for %s after %v", what, hangGuard)
			h.t.Error(err)
			return err
		}
	}
}

func (h *harness) notes() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.timeline...)
}

type workArgs struct {
	ID string `json:"id"`
	// Ms is how long the call works. Only a test that cannot wait on an
	// event uses it, to make a regression likely to show; no result may
	// depend on it.
	Ms int `json:"ms,omitempty"`
	// Wait makes the call wait for cancellation.
	Wait bool `json:"wait,omitempty"`
	// Context is deferred to the model after the batch.
	Context string `json:"context,omitempty"`
	// Output is reported as progress.
	Output string `json:"output,omitempty"`
	// Conclude asks to end the turn.
	Conclude bool `json:"conclude,omitempty"`
	// Meet makes the call wait until that many calls have run at once,
	// so overlap is observed rather than assumed.
	Meet int `json:"meet,omitempty"`
	// After makes the call wait until the call with that ID has ended,
	// so the order in which calls finish is set by events, not by how
	// long each sleeps.
	After string `json:"after,omitempty"`
}

// work registers a tool that notes when each call starts and ends.
func (h *harness) work(name string, parallel bool) {
	h.t.Helper()
	tool, err := registry.Define(registry.Spec[workArgs, string]{
		Name:            name,
		Description:     "Work for a while.\nSecond line is not in the prompt.",
		ConcurrencySafe: func(workArgs) bool { return parallel },
		PresentCall: func(a workArgs) presentation.CallView {
			return presentation.GenericCallView{Title: name + " " + a.ID}
		},
		Handler: func(ctx context.Context, call *registry.Call, a workArgs) (string, error) {
			h.enter()
			defer h.leave()
			h.note("start " + a.ID)
			defer h.note("end " + a.ID)
			if a.Meet > 0 {
				if err := h.waitUntil(ctx, fmt.Sprintf("%d calls at once", a.Meet), func() bool { return h.peak >= a.Meet }); err != nil {
					return "", err
				}
			}
			if a.After != "" {
				if err := h.waitUntil(ctx, "the end of "+a.After, func() bool { return slices.Contains(h.timeline, "end "+a.After) }); err != nil {
					return "", err
				}
			}
			if a.Output != "" {
				call.Report(registry.Progress{Output: a.Output})
			}
			if a.Context != "" {
				call.DeferContext(registry.UserContext(a.Context))
			}
			if a.Conclude {
				call.ConcludeTurn()
			}
			if a.Wait {
				<-ctx.Done()
				return "", ctx.Err()
			}
			select {
			case <-time.After(time.Duration(a.Ms) * time.Millisecond):
				return "done " + a.ID, nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		},
	})
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.reg.Register(h.scope, tool); err != nil {
		h.t.Fatal(err)
	}
}

func call(name string, args workArgs) llm.ToolCall {
	data, _ := json.Marshal(args)
	return llm.ToolCall{ID: "call_" + args.ID, Name: name, Arguments: string(data)}
}

func (h *harness) prompt(ctx context.Context, text string) (session.StopReason, error) {
	return h.agent.Prompt(ctx, []presentation.ContentBlock{presentation.Text(text)})
}

// payloads returns the kinds of the logged events, with tool call ids.
func (h *harness) kinds() []string {
	var out []string
	for _, ev := range h.log.Events() {
		switch p := ev.Payload.(type) {
		case session.ToolCall:
			out = append(out, "call "+p.CallID)
		case session.ToolResult:
			out = append(out, "result "+p.CallID)
		case session.AssistantChunk, session.ToolStarted:
		default:
			out = append(out, ev.Payload.Kind())
		}
	}
	return out
}

func (h *harness) results() map[string]session.ToolResult {
	out := map[string]session.ToolResult{}
	for _, ev := range h.log.Events() {
		if r, ok := ev.Payload.(session.ToolResult); ok {
			out[r.CallID] = r
		}
	}
	return out
}

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	panic(fmt.Sprintf("%q not in %v", s, list))
}
