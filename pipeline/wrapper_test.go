package pipeline_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

func TestStageOrder(t *testing.T) {
	// C48, C49, C197: pre → around → body → post, one call token for all.
	f := newFixture(t, pipeline.Options{})
	var order []string
	var calls []*registry.Call
	f.echo(t, func(s *echoSpec) {
		s.Handler = func(_ context.Context, call *registry.Call, a textArgs) (string, error) {
			order = append(order, "body")
			calls = append(calls, call)
			return a.Text, nil
		}
	})
	f.p.UsePreExecute(nil, func(ctx context.Context, call *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
		order = append(order, "pre")
		calls = append(calls, call)
		return next(ctx)
	})
	f.p.UseExecute(nil, func(ctx context.Context, call *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
		order = append(order, "around:before")
		calls = append(calls, call)
		r, err := next(ctx)
		order = append(order, "around:after")
		return r, err
	})
	f.p.UsePostExecute(nil, func(ctx context.Context, call *registry.Call, _ pipeline.Result, next pipeline.PostNext) (pipeline.PostDecision, error) {
		order = append(order, "post")
		calls = append(calls, call)
		return next(ctx)
	})
	f.p.Observe(nil, func(call *registry.Call, _ pipeline.Result) { calls = append(calls, call) })
	f.run(context.Background(), "echo", `{"text":"x"}`)
	want := []string{"pre", "around:before", "body", "around:after", "post"}
	if len(order) != len(want) {
		t.Fatalf("order = %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order = %v, want %v", order, want)
		}
	}
	for _, c := range calls {
		if c != calls[0] {
			t.Fatalf("stages saw different call tokens")
		}
	}
	if got := calls[0].Arguments().JSON(); got != `{"text":"x"}` {
		t.Errorf("arguments = %s", got)
	}
}

func TestExecuteWrappers(t *testing.T) {
	ctxMsg := registry.UserContext
	tests := []struct {
		name    string
		body    func(call *registry.Call, a textArgs) (string, error)
		wrapper pipeline.ExecuteWrapper
		want    want
	}{
		{
			name: "C67 C69 a panicking body is normalized before next returns",
			body: func(*registry.Call, textArgs) (string, error) { panic("body exploded") },
			wrapper: func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
				r, err := next(ctx)
				if err != nil || !r.IsError || text(r) != "Error: body exploded" {
					return pipeline.Result{}, errors.New("wrapper saw an unnormalized outcome")
				}
				return r, nil
			},
			want: want{content: "Error: body exploded", isError: true, value: "-"},
		},
		{
			name: "C71 a short-circuit success is re-validated and re-rendered",
			wrapper: func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
				r, err := pipeline.Success("cached")
				r.Content = []presentation.ContentBlock{presentation.Text("smuggled")}
				return r, err
			},
			want: want{content: "cached", value: `"cached"`},
		},
		{
			name: "C72 a cached result from another tool fails this tool's contract",
			wrapper: func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
				return pipeline.Success(map[string]int{"n": 1})
			},
			want: want{contains: `Error: tool "echo" returned invalid output: value does not fit string`, isError: true, code: registry.CodeInvalidToolOutput, value: "-"},
		},
		{
			name: "C73 contexts of a wrapper success are kept",
			wrapper: func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
				r, err := pipeline.Success("v")
				r.AdditionalContexts = []registry.ContextMessage{ctxMsg("wrapper")}
				return r, err
			},
			want: want{content: "v", value: `"v"`, contexts: []string{"wrapper"}},
		},
		{
			name: "C23 a wrapper failure keeps its meta and contexts",
			wrapper: func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
				r := pipeline.ErrorResult(errors.New("sandbox refused"))
				r.Meta = `{"why":"sandbox"}`
				r.Value = `"ignored"`
				r.AdditionalContexts = []registry.ContextMessage{ctxMsg("wrapper")}
				return r, nil
			},
			want: want{content: "Error: sandbox refused", isError: true, value: "-", meta: `{"why":"sandbox"}`, contexts: []string{"wrapper"}},
		},
		{
			name: "C46 contexts: deferred, then wrapper",
			body: func(call *registry.Call, a textArgs) (string, error) {
				call.DeferContext(ctxMsg("deferred"))
				return a.Text, nil
			},
			wrapper: func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
				r, err := next(ctx)
				r.AdditionalContexts = append(r.AdditionalContexts, ctxMsg("wrapper"))
				return r, err
			},
			want: want{content: "hi", value: `"hi"`, contexts: []string{"deferred", "wrapper"}},
		},
		{
			name: "the body's result passed on stands, whatever fields the wrapper changed",
			wrapper: func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
				r, err := next(ctx)
				r.Content = []presentation.ContentBlock{presentation.Text("tampered")}
				r.Value = `"tampered"`
				r.IsError = true
				return r, err
			},
			want: want{content: "hi", value: `"hi"`},
		},
		{
			// The pipeline once told the body's result by its slices'
			// addresses: a change in place kept them, and passed.
			name: "the body's result changed in place still stands as the body made it",
			wrapper: func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
				r, err := next(ctx)
				r.Content[0] = presentation.Text("tampered")
				return r, err
			},
			want: want{content: "hi", value: `"hi"`},
		},
		{
			name: "a wrapper's own copy of the body's result is its own",
			wrapper: func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
				r, err := next(ctx)
				return pipeline.Result{Content: r.Content, Value: `"other"`}, err
			},
			want: want{content: "other", value: `"other"`},
		},
		{
			name: "a wrapper result with neither value nor error",
			wrapper: func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
				return pipeline.Result{}, nil
			},
			want: want{contains: "neither a success value nor an error", isError: true, value: "-"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, pipeline.Options{})
			f.echo(t, func(s *echoSpec) {
				if tt.body != nil {
					s.Handler = func(_ context.Context, call *registry.Call, a textArgs) (string, error) { return tt.body(call, a) }
				}
			})
			f.p.UseExecute(nil, tt.wrapper)
			check(t, f.run(context.Background(), "echo", `{"text":"hi"}`), tt.want)
		})
	}
}

// TestWrapperResultKinds: the body's result the wrappers pass on is
// taken as the body made it, rendered once; a result a wrapper makes is
// rendered again from its value, even one equal to the body's.
func TestWrapperResultKinds(t *testing.T) {
	passOn := func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
		return next(ctx)
	}
	attach := func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
		r, err := next(ctx)
		r.AdditionalContexts = append(r.AdditionalContexts, registry.UserContext("outer"))
		return r, err
	}
	copyOut := func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
		r, err := next(ctx)
		return pipeline.Result{Value: r.Value, Content: r.Content}, err
	}
	cached := func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
		return pipeline.Success("cached")
	}
	tests := []struct {
		name     string
		wrappers []pipeline.ExecuteWrapper // outermost first
		renders  int
		content  string
		contexts int
	}{
		{"passed on", []pipeline.ExecuteWrapper{passOn}, 1, "rendered hi", 0},
		{"passed on by two wrappers", []pipeline.ExecuteWrapper{attach, passOn}, 1, "rendered hi", 1},
		{"made by the wrapper from the body's", []pipeline.ExecuteWrapper{copyOut}, 2, "rendered hi", 0},
		{"made by an inner wrapper, passed on", []pipeline.ExecuteWrapper{passOn, copyOut}, 2, "rendered hi", 0},
		{"made without the body", []pipeline.ExecuteWrapper{cached}, 1, "rendered cached", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, pipeline.Options{})
			renders := 0
			f.echo(t, func(s *echoSpec) {
				s.Render = func(_ textArgs, v string) ([]presentation.ContentBlock, error) {
					renders++
					return []presentation.ContentBlock{presentation.Text("rendered " + v)}, nil
				}
			})
			for _, w := range tt.wrappers {
				f.p.UseExecute(nil, w)
			}
			r := f.run(context.Background(), "echo", `{"text":"hi"}`)
			if text(r) != tt.content || r.IsError || renders != tt.renders || len(r.AdditionalContexts) != tt.contexts {
				t.Errorf("result %q (error %v, %d contexts), rendered %d times; want %q, %d contexts, rendered %d times",
					text(r), r.IsError, len(r.AdditionalContexts), renders, tt.content, tt.contexts, tt.renders)
			}
		})
	}
}

func TestWrapperSuccessForAVanishedTool(t *testing.T) {
	// C24.
	f := newFixture(t, pipeline.Options{})
	f.echo(t, nil)
	f.p.UseExecute(nil, func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
		f.unregister()
		return pipeline.Success("v")
	})
	check(t, f.run(context.Background(), "echo", `{"text":"hi"}`), want{content: `Error: unknown tool "echo"`, isError: true, code: registry.CodeUnknownTool, value: "-"})
}

func TestPreDenySkipsDispatch(t *testing.T) {
	// C66.
	f := newFixture(t, pipeline.Options{})
	f.echo(t, nil)
	wrapped := false
	f.p.UsePreExecute(nil, preDecide(pipeline.Deny("no")))
	f.p.UseExecute(nil, func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
		wrapped = true
		return next(ctx)
	})
	f.run(context.Background(), "echo", `{"text":"hi"}`)
	if wrapped {
		t.Errorf("an execute wrapper ran for a denied call")
	}
}

func TestSchedulerView(t *testing.T) {
	// C198, and the Prepare/Dispatch/Finish split a scheduler uses.
	f := newFixture(t, pipeline.Options{})
	f.echo(t, nil)
	posts := 0
	f.p.UsePostExecute(nil, func(ctx context.Context, _ *registry.Call, _ pipeline.Result, next pipeline.PostNext) (pipeline.PostDecision, error) {
		posts++
		return next(ctx)
	})
	x := f.p.Prepare(context.Background(), pipeline.Input{CallID: "a", Name: "echo", Arguments: `{"text":"x"}`})
	if !x.NeedsDispatch() || x.Call().ID() != "a" {
		t.Fatalf("prepared call not ready for dispatch")
	}
	x.Dispatch()
	first := x.Finish()
	again := x.Finish()
	if text(first) != "x" || text(again) != "x" || posts != 1 || len(f.results()) != 1 {
		t.Errorf("Finish twice: %q %q, posts %d, observed %d", text(first), text(again), posts, len(f.results()))
	}
	// A final result skips post-execute and is observed once.
	lossy := f.p.Prepare(context.Background(), pipeline.Input{CallID: "b", Name: "echo", Arguments: `{"n":-0}`})
	if lossy.NeedsDispatch() {
		t.Fatalf("a lossy call wants dispatch")
	}
	lossy.Dispatch()
	if r := lossy.Finish(); !r.IsError || posts != 1 || len(f.results()) != 2 {
		t.Errorf("lossy: %+v, posts %d, observed %d", r, posts, len(f.results()))
	}
}
