package pipeline_test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
)

func TestExecutionMode(t *testing.T) {
	tests := []struct {
		name       string
		classifier func(textArgs) bool
		raw        func(registry.Arguments) bool
		tool       string
		args       string
		want       pipeline.ExecutionMode
	}{
		{name: "C169 true is parallel", classifier: func(textArgs) bool { return true }, args: `{"text":"x"}`, want: pipeline.Parallel},
		{name: "C170 no classifier is exclusive", args: `{"text":"x"}`, want: pipeline.Exclusive},
		{name: "C171 an unknown tool is exclusive", tool: "nope", args: `{}`, want: pipeline.Exclusive},
		{name: "C172 false is exclusive", classifier: func(textArgs) bool { return false }, args: `{"text":"x"}`, want: pipeline.Exclusive},
		{name: "C173 invalid arguments are exclusive", classifier: func(textArgs) bool { return true }, args: `{"text":1}`, want: pipeline.Exclusive},
		{name: "C174 a panicking raw classifier is exclusive", raw: func(registry.Arguments) bool { panic("classifier") }, tool: "raw", args: `{}`, want: pipeline.Exclusive},
		{name: "C176 a raw classifier gets the arguments as they are", raw: func(a registry.Arguments) bool { return a.InvalidJSON() != nil }, tool: "raw", args: `{oops`, want: pipeline.Parallel},
		{name: "lossy arguments are exclusive", classifier: func(textArgs) bool { return true }, args: `{"text":"x","n":-0}`, want: pipeline.Exclusive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, pipeline.Options{})
			f.echo(t, func(s *echoSpec) { s.ConcurrencySafe = tt.classifier })
			if tt.raw != nil {
				if _, err := f.reg.Register(nil, mustRaw(t, tt.raw)); err != nil {
					t.Fatal(err)
				}
			}
			name := tt.tool
			if name == "" {
				name = "echo"
			}
			if got := f.p.ExecutionMode(pipeline.Input{Name: name, Arguments: tt.args, Scope: f.agent}); got != tt.want {
				t.Errorf("mode = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBindOnceAnswersEveryStage(t *testing.T) {
	// A scheduler binds a call once: classifying, announcing, running,
	// re-validating a wrapper's value and presenting the result all ask
	// that one binding, so the arguments are decoded once.
	f := newFixture(t, pipeline.Options{})
	id := t.Name()
	// A count of this id left by an earlier run (-count) starts over.
	decodes.Delete(id)
	t.Cleanup(func() { decodes.Delete(id) })
	var seen []string
	tool, err := registry.Define(registry.Spec[countedArgs, string]{
		Name:    "counted",
		Handler: func(_ context.Context, _ *registry.Call, a countedArgs) (string, error) { return a.Text, nil },
		ConcurrencySafe: func(a countedArgs) bool {
			seen = append(seen, "classify "+a.Text)
			return true
		},
		Paths: func(a countedArgs) []string { return []string{a.Text} },
		PresentCall: func(a countedArgs) presentation.CallView {
			return presentation.GenericCallView{Title: "call " + a.Text}
		},
		PresentResult: func(a countedArgs, r presentation.ToolResult) presentation.ResultView {
			return presentation.GenericResultView{Title: "result " + a.Text}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.reg.Register(nil, tool); err != nil {
		t.Fatal(err)
	}
	// A wrapper that replaces the body's success makes the pipeline
	// re-validate and re-render through the binding.
	f.p.UseExecute(nil, func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
		if _, err := next(ctx); err != nil {
			return pipeline.Result{}, err
		}
		return pipeline.Success("wrapped")
	})
	x := f.p.Bind(pipeline.Input{CallID: "c", Name: "counted", Arguments: `{"id":"` + id + `","text":"given"}`, Scope: f.agent})
	if got := x.Mode(); got != pipeline.Parallel {
		t.Errorf("mode = %v", got)
	}
	if v, ok := x.PresentCall().(presentation.GenericCallView); !ok || v.Title != "call given" {
		t.Errorf("PresentCall = %#v", x.PresentCall())
	}
	if paths, ok := x.Call().Bound().Paths(); !ok || len(paths) != 1 || paths[0] != "given" {
		t.Errorf("Paths = %v, %v", paths, ok)
	}
	x.Prepare(context.Background())
	x.Dispatch()
	r := x.Finish()
	check(t, r, want{content: "wrapped", value: `"wrapped"`})
	if v, ok := x.PresentResult(r).(presentation.GenericResultView); !ok || v.Title != "result given" {
		t.Errorf("PresentResult = %#v", x.PresentResult(r))
	}
	if n := decodeCount(id); n != 1 {
		t.Errorf("arguments decoded %d times, want 1", n)
	}
	if len(seen) != 1 {
		t.Errorf("classifier calls = %q", seen)
	}
}

func TestBindFollowsAReplacedTool(t *testing.T) {
	// The body runs the tool live when it runs: a tool replaced between
	// Bind and Dispatch is bound again, an unregistered one is not found.
	f := newFixture(t, pipeline.Options{})
	f.echo(t, nil)
	x := f.p.Bind(pipeline.Input{CallID: "c", Name: "echo", Arguments: `{"text":"x"}`, Scope: f.agent})
	f.unregister()
	f.echo(t, func(s *echoSpec) {
		s.Handler = func(_ context.Context, _ *registry.Call, a textArgs) (string, error) { return "new " + a.Text, nil }
	})
	x.Prepare(context.Background())
	check(t, x.Finish(), want{content: "new x", value: `"new x"`})

	gone := f.p.Bind(pipeline.Input{CallID: "d", Name: "echo", Arguments: `{"text":"x"}`, Scope: f.agent})
	f.unregister()
	gone.Prepare(context.Background())
	check(t, gone.Finish(), want{isError: true, code: registry.CodeUnknownTool})
}

func TestAnUnpreparedExecutionFinishesAborted(t *testing.T) {
	f := newFixture(t, pipeline.Options{})
	f.echo(t, nil)
	x := f.p.Bind(pipeline.Input{CallID: "c", Name: "echo", Arguments: `{"text":"x"}`, Scope: f.agent})
	if x.NeedsDispatch() {
		t.Error("an unprepared call needs dispatch")
	}
	x.Dispatch()
	check(t, x.Finish(), want{isError: true, code: registry.CodeAbortedBeforeDispatch})
	if len(f.results()) != 0 {
		t.Errorf("observers saw an unprepared call: %v", f.results())
	}
}

// countedArgs counts its decodes under its id (decodeCount).
type countedArgs struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// decodes maps an id to the *atomic.Int64 counting its decodes.
var decodes sync.Map

func (a *countedArgs) UnmarshalJSON(b []byte) error {
	type plain countedArgs
	if err := json.Unmarshal(b, (*plain)(a)); err != nil {
		return err
	}
	n, _ := decodes.LoadOrStore(a.ID, new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
	return nil
}

func decodeCount(id string) int64 {
	n, ok := decodes.Load(id)
	if !ok {
		return 0
	}
	return n.(*atomic.Int64).Load()
}
