package pipeline_test

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// Reach for pre-execute to decide whether a call may run at all: allow
// it, deny it with a reason the model reads, or ask the user through the
// Approver (package policy is such a middleware, deciding by preset).
// Arguments that do not fit the tool fail before any of that.
func ExamplePipeline_Execute() {
	type shoutArgs struct {
		Text string `json:"text"`
	}
	shout, _ := registry.Define(registry.Spec[shoutArgs, string]{
		Name: "shout",
		Handler: func(_ context.Context, _ *registry.Call, a shoutArgs) (string, error) {
			return a.Text + "!", nil
		},
	})
	reg := registry.New()
	reg.Register(nil, shout)
	agent := reg.NewScope("agent", nil)

	// The user approves every ask.
	approver := pipeline.ApproverFunc(func(context.Context, pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
		return pipeline.ApprovalAllowedOnce, nil
	})
	p := pipeline.New(reg, pipeline.Options{Approver: approver})
	p.UsePreExecute(nil, func(ctx context.Context, call *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
		return pipeline.Ask("shouting is loud"), nil
	})

	ctx := context.Background()
	ok := p.Execute(ctx, pipeline.Input{CallID: "call_1", Name: "shout", Arguments: `{"text":"hi"}`, Scope: agent})
	fmt.Println(presentation.JoinText(ok.Content), ok.Value)

	bad := p.Execute(ctx, pipeline.Input{CallID: "call_2", Name: "shout", Arguments: `{"txt":"hi"}`, Scope: agent})
	fmt.Println(presentation.JoinText(bad.Content), bad.Error.Code)
	// Output:
	// hi! "hi!"
	// Error: invalid arguments: missing required property "text" INVALID_ARGS
}

// Reach for an execute wrapper to act around the tool body itself: time
// it, retry it, or answer without running it. Here repeated identical
// calls of a pure lookup tool are answered from a cache. A result a
// wrapper returns itself is re-validated against the tool's output
// contract and re-rendered by the tool, so a stale cache entry cannot
// smuggle in content the tool would not produce.
func ExamplePipeline_UseExecute() {
	type lookupArgs struct {
		Word string `json:"word"`
	}
	runs := 0
	lookup, _ := registry.Define(registry.Spec[lookupArgs, string]{
		Name: "lookup",
		Handler: func(_ context.Context, _ *registry.Call, a lookupArgs) (string, error) {
			runs++
			return strings.ToUpper(a.Word), nil
		},
	})
	reg := registry.New()
	reg.Register(nil, lookup)
	p := pipeline.New(reg, pipeline.Options{})

	var mu sync.Mutex
	cache := map[string]pipeline.Result{}
	p.UseExecute(nil, func(ctx context.Context, call *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
		key := call.Name() + " " + call.Arguments().JSON()
		mu.Lock()
		cached, hit := cache[key]
		mu.Unlock()
		if hit {
			return cached, nil
		}
		r, err := next(ctx)
		if err == nil && !r.IsError {
			mu.Lock()
			cache[key] = r
			mu.Unlock()
		}
		return r, err
	})

	ctx := context.Background()
	for i, word := range []string{"go", "go", "zig"} {
		r := p.Execute(ctx, pipeline.Input{CallID: fmt.Sprint("call_", i), Name: "lookup", Arguments: fmt.Sprintf(`{"word":%q}`, word)})
		fmt.Println(presentation.JoinText(r.Content))
	}
	fmt.Println("the tool ran", runs, "times")
	// Output:
	// GO
	// GO
	// ZIG
	// the tool ran 2 times
}

// Reach for post-execute to judge what a tool produced before the model
// reads it: replace its content (here, redact a secret a command printed)
// or block it with feedback. Registered with a scope, it sees only that
// agent's calls.
func ExamplePipeline_UsePostExecute() {
	type runArgs struct {
		Command string `json:"command"`
	}
	run, _ := registry.Define(registry.Spec[runArgs, string]{
		Name: "run",
		Handler: func(_ context.Context, _ *registry.Call, a runArgs) (string, error) {
			return "API_KEY=sk-live-1234\nHOME=/home/dev", nil // what `env` printed
		},
	})
	reg := registry.New()
	reg.Register(nil, run)
	agent := reg.NewScope("agent", nil)
	p := pipeline.New(reg, pipeline.Options{})

	p.UsePostExecute(agent, func(ctx context.Context, call *registry.Call, result pipeline.Result, next pipeline.PostNext) (pipeline.PostDecision, error) {
		text := presentation.JoinText(result.Content)
		if result.IsError || !strings.Contains(text, "sk-") {
			return next(ctx)
		}
		var lines []string
		for line := range strings.Lines(text) {
			if strings.Contains(line, "sk-") {
				name, _, _ := strings.Cut(line, "=")
				line = name + "=[redacted]\n"
			}
			lines = append(lines, line)
		}
		return pipeline.AcceptContent([]presentation.ContentBlock{presentation.Text(strings.Join(lines, ""))}), nil
	})

	ctx := context.Background()
	r := p.Execute(ctx, pipeline.Input{CallID: "call_1", Name: "run", Arguments: `{"command":"env"}`, Scope: agent})
	fmt.Println(presentation.JoinText(r.Content))
	// Output:
	// API_KEY=[redacted]
	// HOME=/home/dev
}

// Reach for an observer to record what happened without changing it:
// metrics, an audit log. Every finished call reaches it, failures and
// denials included, with its own copy of the result.
func ExamplePipeline_Observe() {
	type divArgs struct {
		A, B int
	}
	div, _ := registry.Define(registry.Spec[divArgs, int]{
		Name: "div",
		Handler: func(_ context.Context, _ *registry.Call, a divArgs) (int, error) {
			if a.B == 0 {
				return 0, &registry.Error{Code: "DIV_BY_ZERO", Message: "division by zero"}
			}
			return a.A / a.B, nil
		},
	})
	reg := registry.New()
	reg.Register(nil, div)
	p := pipeline.New(reg, pipeline.Options{})

	var mu sync.Mutex
	failures := map[string]int{}
	p.Observe(nil, func(call *registry.Call, r pipeline.Result) {
		mu.Lock()
		defer mu.Unlock()
		if r.IsError {
			failures[call.Name()+" "+r.Code()]++
		}
	})

	ctx := context.Background()
	for i, args := range []string{`{"A":6,"B":3}`, `{"A":1,"B":0}`, `{"A":2}`, `{"A":5,"B":0}`} {
		p.Execute(ctx, pipeline.Input{CallID: fmt.Sprint("call_", i), Name: "div", Arguments: args})
	}
	fmt.Println(failures)
	// Output:
	// map[div DIV_BY_ZERO:2 div INVALID_ARGS:1]
}
