package pipeline_test

import (
	"context"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
)

// BenchmarkNoopThroughFullPipeline measures a no-op typed tool through every
// stage: two pre-execute listeners, one guard, the timeout wrapper, one
// post-execute listener and one observer.
func BenchmarkNoopThroughFullPipeline(b *testing.B) {
	reg := registry.New()
	tool, err := registry.Define(registry.Spec[textArgs, string]{
		Name:    "noop",
		Timeout: time.Minute,
		Handler: func(context.Context, *registry.Call, textArgs) (string, error) { return "ok", nil },
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := reg.Register(nil, tool); err != nil {
		b.Fatal(err)
	}
	p := pipeline.New(reg, pipeline.Options{}) // installs the timeout wrapper
	pass := func(ctx context.Context, _ *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
		return next(ctx)
	}
	p.UsePreExecute(nil, pass)
	p.UsePreExecute(nil, pass)
	reg.Guard(nil, func(*registry.Call) string { return "" })
	p.UsePostExecute(nil, func(ctx context.Context, _ *registry.Call, _ pipeline.Result, next pipeline.PostNext) (pipeline.PostDecision, error) {
		return next(ctx)
	})
	p.Observe(nil, func(*registry.Call, pipeline.Result) {})
	scope := reg.NewScope("agent", nil)
	in := pipeline.Input{CallID: "call_1", Name: "noop", Arguments: `{"text":"hello"}`, Scope: scope}
	// The agent loop's context is always cancellable, so the body's
	// context is fused with the caller's on every call.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.ReportAllocs()
	for b.Loop() {
		if r := p.Execute(ctx, in); r.IsError {
			b.Fatalf("result: %+v", r)
		}
	}
}
