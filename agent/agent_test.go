package agent_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

func TestTextOnlyTurn(t *testing.T) {
	model := llm.NewScripted(llm.Message{Content: "Hello there, how can I help?", Reasoning: "the user greets"})
	h := newHarness(t, model, nil)
	h.work("work", true)
	reason, err := h.prompt(context.Background(), "hi")
	if err != nil || reason != session.StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	want := []string{"turn/start", "user/message", "assistant/message", "turn/end"}
	if got := h.kinds(); !slices.Equal(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	var text, thought strings.Builder
	for _, ev := range h.log.Events() {
		if c, ok := ev.Payload.(session.AssistantChunk); ok {
			if c.Reasoning {
				thought.WriteString(c.Text)
			} else {
				text.WriteString(c.Text)
			}
		}
	}
	if text.String() != "Hello there, how can I help?" || thought.String() != "the user greets" {
		t.Errorf("chunks = %q / %q", text.String(), thought.String())
	}
	req := model.Requests()[0]
	for _, want := range []string{"- work: Work for a while.", "Working directory: /home/dev/project", "Platform: linux/amd64", "Today's date: 2026-11-29"} {
		if !strings.Contains(req.System, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, req.System)
		}
	}
	if strings.Contains(req.System, "Second line") {
		t.Errorf("system prompt holds more than the first line of a description")
	}
	if len(req.Tools) != 1 || req.Tools[0].Name != "work" || len(req.Messages) != 1 || req.Messages[0].Content != "hi" {
		t.Errorf("request = %+v", req)
	}
}

func TestParallelCallsOverlapAndCommitInModelOrder(t *testing.T) {
	// All three run at once, then finish in the order b, c, a (each waits
	// for the end of the one before it), unlike the model's order a, b, c.
	model := llm.NewScripted(
		llm.Message{ToolCalls: []llm.ToolCall{
			call("par", workArgs{ID: "a", Meet: 3, After: "c"}),
			call("par", workArgs{ID: "b", Meet: 3}),
			call("par", workArgs{ID: "c", Meet: 3, After: "b"}),
		}},
		llm.Message{Content: "all done"},
	)
	h := newHarness(t, model, nil)
	h.work("par", true)
	if reason, err := h.prompt(context.Background(), "go"); err != nil || reason != session.StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	if h.peak != 3 {
		t.Errorf("peak concurrency = %d, want 3 (the calls did not overlap)", h.peak)
	}
	notes := h.notes()
	if index(notes, "end b") > index(notes, "end c") || index(notes, "end c") > index(notes, "end a") {
		t.Errorf("the calls did not finish in the order b, c, a: %v", notes)
	}
	want := []string{"turn/start", "user/message", "assistant/message",
		"call call_a", "call call_b", "call call_c", "result call_a", "result call_b", "result call_c",
		"assistant/message", "turn/end"}
	if got := h.kinds(); !slices.Equal(got, want) {
		t.Errorf("events = %v\nwant     %v", got, want)
	}
	// The second request carries the calls and their results.
	msgs := model.Requests()[1].Messages
	if len(msgs) != 5 || len(msgs[1].ToolCalls) != 3 || msgs[2].ToolCallID != "call_a" || msgs[2].Content != "done a" || msgs[4].ToolCallID != "call_c" {
		t.Errorf("history = %+v", msgs)
	}
	// Views and result links.
	for _, ev := range h.log.Events() {
		if c, ok := ev.Payload.(session.ToolCall); ok {
			if v, ok := c.View.(presentation.GenericCallView); !ok || v.Title != "par "+strings.TrimPrefix(c.CallID, "call_") {
				t.Errorf("call view = %#v", c.View)
			}
		}
	}
	for id, r := range h.results() {
		if r.CallSeq == 0 || r.IsError {
			t.Errorf("result %s = %+v", id, r)
		}
	}
}

func TestExclusiveCallsAreBarriers(t *testing.T) {
	model := llm.NewScripted(llm.Message{ToolCalls: []llm.ToolCall{
		call("par", workArgs{ID: "p1", Ms: 40}),
		call("par", workArgs{ID: "p2", Ms: 20}),
		call("ex", workArgs{ID: "x", Ms: 10}),
		call("par", workArgs{ID: "p3", Ms: 10}),
	}})
	h := newHarness(t, model, nil)
	h.work("par", true)
	h.work("ex", false)
	if _, err := h.prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	n := h.notes()
	if index(n, "start x") < index(n, "end p1") || index(n, "start x") < index(n, "end p2") {
		t.Errorf("the exclusive call started before the pool drained: %v", n)
	}
	if index(n, "start p3") < index(n, "end x") {
		t.Errorf("a later parallel call started before the exclusive call ended: %v", n)
	}
}

func TestPoolIsBoundedAndPrepareIsSerialInModelOrder(t *testing.T) {
	// Two calls always meet, so a bound of 2 is reached whatever the
	// scheduling; each then works a while, so a pool that let more in
	// would likely show it.
	calls := []llm.ToolCall{}
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		calls = append(calls, call("par", workArgs{ID: id, Ms: 30, Meet: 2}))
	}
	model := llm.NewScripted(llm.Message{ToolCalls: calls})
	h := newHarness(t, model, func(o *agent.Options) { o.MaxParallelToolCalls = 2 })
	h.work("par", true)
	var prepared []string
	h.pipe.UsePreExecute(nil, func(ctx context.Context, call *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
		prepared = append(prepared, call.ID())
		return next(ctx)
	})
	if _, err := h.prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if h.peak != 2 {
		t.Errorf("peak concurrency = %d, want 2", h.peak)
	}
	if want := []string{"call_a", "call_b", "call_c", "call_d", "call_e"}; !slices.Equal(prepared, want) {
		t.Errorf("prepare order = %v", prepared)
	}
}

func TestCancellationMidBatch(t *testing.T) {
	model := llm.NewScripted(llm.Message{ToolCalls: []llm.ToolCall{
		call("par", workArgs{ID: "a", Wait: true}),
		call("par", workArgs{ID: "b", Wait: true}),
		call("ex", workArgs{ID: "x"}),
		call("par", workArgs{ID: "c"}),
	}})
	h := newHarness(t, model, nil)
	h.work("par", true)
	h.work("ex", false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once both waiting calls run (or, if that never comes,
		// when the hang guard fails the test, so the prompt still ends).
		defer cancel()
		h.waitUntil(ctx, "a and b running", func() bool { return h.running == 2 })
	}()
	reason, err := h.prompt(ctx, "go")
	if err != nil || reason != session.StopCancelled {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	results := h.results()
	for _, id := range []string{"call_a", "call_b", "call_x", "call_c"} {
		if _, ok := results[id]; !ok {
			t.Errorf("no result for %s", id)
		}
	}
	for _, id := range []string{"call_x", "call_c"} {
		if results[id].Code != registry.CodeAbortedBeforeDispatch {
			t.Errorf("%s code = %q, want ABORTED_BEFORE_DISPATCH", id, results[id].Code)
		}
	}
	if !results["call_a"].IsError || !results["call_b"].IsError {
		t.Errorf("the running calls did not fail: %+v", results)
	}
	if slices.Contains(h.notes(), "start x") {
		t.Errorf("a call started after cancellation")
	}
	kinds := h.kinds()
	if kinds[len(kinds)-1] != "turn/end" {
		t.Errorf("events = %v", kinds)
	}
}

func TestContextsFollowTheBatchInModelOrder(t *testing.T) {
	model := llm.NewScripted(llm.Message{ToolCalls: []llm.ToolCall{
		call("par", workArgs{ID: "a", After: "b", Context: "from a"}),
		call("par", workArgs{ID: "b", Context: "from b", Output: "progress of b"}),
	}})
	h := newHarness(t, model, nil)
	h.work("par", true)
	if _, err := h.prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	kinds := h.kinds()
	if i, j := index(kinds, "result call_b"), index(kinds, "context/message"); j < i {
		t.Errorf("a context came before the batch's results: %v", kinds)
	}
	var contexts, outputs []string
	for _, ev := range h.log.Events() {
		switch p := ev.Payload.(type) {
		case session.ContextMessage:
			contexts = append(contexts, presentation.JoinText(p.Message.Content))
		case session.ToolOutput:
			outputs = append(outputs, p.CallID+":"+p.Output)
		}
	}
	if !slices.Equal(contexts, []string{"from a", "from b"}) || !slices.Equal(outputs, []string{"call_b:progress of b"}) {
		t.Errorf("contexts %v, outputs %v", contexts, outputs)
	}
}

func TestTurnLimits(t *testing.T) {
	loop := func() llm.Message { return llm.Message{ToolCalls: []llm.ToolCall{call("par", workArgs{ID: "a"})}} }
	tests := []struct {
		name     string
		provider llm.Provider
		edit     func(*agent.Options)
		want     session.StopReason
		wantErr  string
	}{
		{
			name:     "request cap",
			provider: llm.NewScripted(loop(), loop(), loop()),
			edit:     func(o *agent.Options) { o.MaxRequestsPerTurn = 2 },
			want:     session.StopMaxTurnRequests,
		},
		{
			name: "length limit",
			provider: providerFunc(func(ctx context.Context, _ llm.Request) (*llm.Stream, error) {
				return llm.StreamOf(ctx, llm.TextDelta{Text: "cut o"},
					llm.ToolCallDelta{Index: 0, ID: "call_a", Name: "par", Arguments: `{"id":`},
					llm.Finish{Reason: llm.FinishLength}), nil
			}),
			want: session.StopMaxTokens,
		},
		{
			name: "content filter",
			provider: providerFunc(func(ctx context.Context, _ llm.Request) (*llm.Stream, error) {
				return llm.StreamOf(ctx, llm.Finish{Reason: llm.FinishContentFilter}), nil
			}),
			want: session.StopRefusal,
		},
		{
			name: "the model fails",
			provider: providerFunc(func(context.Context, llm.Request) (*llm.Stream, error) {
				return nil, errors.New("provider boom")
			}),
			want:    session.StopError,
			wantErr: "turn failed: provider boom",
		},
		{
			name:     "a call concludes the turn",
			provider: llm.NewScripted(llm.Message{ToolCalls: []llm.ToolCall{call("par", workArgs{ID: "a", Conclude: true})}}, llm.Message{Content: "never asked"}),
			want:     session.StopEndTurn,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.provider, tt.edit)
			h.work("par", true)
			reason, err := h.prompt(context.Background(), "go")
			if reason != tt.want || (err == nil) != (tt.wantErr == "") || (err != nil && err.Error() != tt.wantErr) {
				t.Fatalf("Prompt = %q, %v; want %q, %q", reason, err, tt.want, tt.wantErr)
			}
			events := h.log.Events()
			end := events[len(events)-1].Payload.(session.TurnEnded)
			if end.Reason != tt.want || (tt.wantErr != "" && end.Error != "provider boom") {
				t.Errorf("turn end = %+v", end)
			}
			for _, ev := range events {
				if m, ok := ev.Payload.(session.AssistantMessage); ok && tt.want == session.StopMaxTokens && len(m.ToolCalls) > 0 {
					t.Errorf("a cut-off message kept its tool calls")
				}
			}
			if s, ok := tt.provider.(*llm.Scripted); ok && tt.name == "a call concludes the turn" && s.Remaining() != 1 {
				t.Errorf("the model was asked again after a concluding call")
			}
		})
	}
}

func TestOnePromptAtATime(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	provider := providerFunc(func(ctx context.Context, _ llm.Request) (*llm.Stream, error) {
		close(started)
		<-release
		return llm.StreamOf(ctx, llm.Finish{Reason: llm.FinishStop}), nil
	})
	h := newHarness(t, provider, nil)
	done := make(chan error)
	go func() {
		_, err := h.prompt(context.Background(), "first")
		done <- err
	}()
	<-started
	if _, err := h.prompt(context.Background(), "second"); !errors.Is(err, agent.ErrBusy) {
		t.Errorf("second prompt: %v, want ErrBusy", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestNewRequiresItsParts(t *testing.T) {
	if _, err := agent.New(agent.Options{}); err == nil {
		t.Errorf("New without a provider succeeded")
	}
}

type providerFunc func(ctx context.Context, req llm.Request) (*llm.Stream, error)

func (f providerFunc) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	return f(ctx, req)
}
