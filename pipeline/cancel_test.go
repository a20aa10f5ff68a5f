package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

var (
	wantAborted               = want{content: "Error: tool call aborted", isError: true, code: registry.CodeAborted, value: "-"}
	wantAbortedBeforeDispatch = want{content: "Error: tool call aborted before dispatch", isError: true, code: registry.CodeAbortedBeforeDispatch, value: "-"}
)

// cancelCase sets up a pipeline whose stages may cancel the caller.
type cancelCase struct {
	name    string
	body    func(ctx context.Context, call *registry.Call, cancel context.CancelFunc) (string, error)
	setup   func(f *fixture, cancel context.CancelFunc)
	want    want
	bodies  int
	preCanc bool // cancel before Execute
}

func TestCancellation(t *testing.T) {
	deferred := registry.UserContext("deferred")
	tests := []cancelCase{
		{
			name:    "C64 a pre-cancelled call runs no phase",
			preCanc: true,
			setup: func(f *fixture, _ context.CancelFunc) {
				fail := func(string) { panic("a phase ran") }
				f.p.UsePreExecute(nil, func(context.Context, *registry.Call, pipeline.PreNext) (pipeline.Decision, error) {
					fail("pre")
					return pipeline.Allow(), nil
				})
				f.p.UseExecute(nil, func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
					fail("around")
					return pipeline.Result{}, nil
				})
				f.p.UsePostExecute(nil, func(context.Context, *registry.Call, pipeline.Result, pipeline.PostNext) (pipeline.PostDecision, error) {
					fail("post")
					return pipeline.Accept(), nil
				})
			},
			want: wantAbortedBeforeDispatch,
		},
		{
			name: "C50 C36 cancellation while pre-execute waits skips the body",
			setup: func(f *fixture, cancel context.CancelFunc) {
				f.p.UsePreExecute(nil, func(ctx context.Context, _ *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
					cancel()
					<-ctx.Done()
					return next(ctx)
				})
			},
			want: wantAbortedBeforeDispatch,
		},
		{
			name: "C36 an approval the caller's cancellation overtakes",
			setup: func(f *fixture, cancel context.CancelFunc) {
				f.p.UsePreExecute(nil, preDecide(pipeline.Ask("")))
			},
			want: wantAbortedBeforeDispatch,
		},
		{
			name: "C51 a deny that settles after cancellation is kept",
			setup: func(f *fixture, cancel context.CancelFunc) {
				f.p.UsePreExecute(nil, func(context.Context, *registry.Call, pipeline.PreNext) (pipeline.Decision, error) {
					cancel()
					return pipeline.Deny("late deny"), nil
				})
			},
			want: want{content: "Error: late deny", isError: true, value: "-"},
		},
		{
			name: "C52 a pre-execute failure after cancellation is kept",
			setup: func(f *fixture, cancel context.CancelFunc) {
				f.p.UsePreExecute(nil, func(context.Context, *registry.Call, pipeline.PreNext) (pipeline.Decision, error) {
					cancel()
					return pipeline.Decision{}, errors.New("late failure")
				})
			},
			want: want{content: "Error: late failure", isError: true, value: "-"},
		},
		{
			name: "C53 cancellation is rechecked after a wrapper delegates",
			setup: func(f *fixture, cancel context.CancelFunc) {
				f.p.UseExecute(nil, func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
					cancel()
					return next(context.WithoutCancel(ctx))
				})
			},
			want: wantAbortedBeforeDispatch,
		},
		{
			name: "C54 a wrapper passing a cancelled context skips the body",
			setup: func(f *fixture, _ context.CancelFunc) {
				f.p.UseExecute(nil, func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
					done, stop := context.WithCancel(ctx)
					stop()
					return next(done)
				})
			},
			want: wantAbortedBeforeDispatch,
		},
		{
			name: "C55 cancellation overtaking a wrapper short-circuit",
			setup: func(f *fixture, cancel context.CancelFunc) {
				f.p.UseExecute(nil, func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
					cancel()
					return pipeline.Success("cached")
				})
			},
			want: wantAbortedBeforeDispatch,
		},
		{
			name: "C56 a late wrapper success becomes ABORTED and keeps deferred contexts",
			body: func(_ context.Context, call *registry.Call, _ context.CancelFunc) (string, error) {
				call.DeferContext(deferred)
				return "done", nil
			},
			setup: func(f *fixture, cancel context.CancelFunc) {
				f.p.UseExecute(nil, func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
					r, err := next(ctx)
					cancel()
					return r, err
				})
			},
			want:   withContextsWant(wantAborted, "deferred"),
			bodies: 1,
		},
		{
			name: "C57 a late post-execute success becomes ABORTED and keeps contexts",
			setup: func(f *fixture, cancel context.CancelFunc) {
				f.p.UsePostExecute(nil, func(context.Context, *registry.Call, pipeline.Result, pipeline.PostNext) (pipeline.PostDecision, error) {
					cancel()
					d := pipeline.Accept()
					d.AdditionalContexts = []registry.ContextMessage{registry.UserContext("post")}
					return d, nil
				})
			},
			want:   withContextsWant(wantAborted, "post"),
			bodies: 1,
		},
		{
			name: "C58 a wrapper failure after cancellation is kept",
			setup: func(f *fixture, cancel context.CancelFunc) {
				f.p.UseExecute(nil, func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
					cancel()
					return pipeline.ErrorResult(errors.New("wrapper failed")), nil
				})
			},
			want: want{content: "Error: wrapper failed", isError: true, value: "-"},
		},
		{
			name: "C59 a tool-owned failure after the body saw cancellation is kept",
			body: func(ctx context.Context, _ *registry.Call, cancel context.CancelFunc) (string, error) {
				cancel()
				<-ctx.Done()
				return "", &registry.Error{Code: "WEB_ABORTED", Message: "fetch aborted"}
			},
			want:   want{content: "Error: fetch aborted", isError: true, code: "WEB_ABORTED", value: "-"},
			bodies: 1,
		},
		{
			name: "C60 a post-execute failure after cancellation is kept",
			setup: func(f *fixture, cancel context.CancelFunc) {
				f.p.UsePostExecute(nil, func(context.Context, *registry.Call, pipeline.Result, pipeline.PostNext) (pipeline.PostDecision, error) {
					cancel()
					return pipeline.Block(presentation.Text("post blocked")), nil
				})
			},
			want:   want{content: "post blocked", isError: true, value: "-"},
			bodies: 1,
		},
		{
			name: "a body returning its context's error is ABORTED, not a tool failure",
			body: func(ctx context.Context, _ *registry.Call, cancel context.CancelFunc) (string, error) {
				cancel()
				<-ctx.Done()
				return "", fmt.Errorf("waiting for the lock: %w", ctx.Err())
			},
			want:   wantAborted,
			bodies: 1,
		},
		{
			name: "C61 C70 the caller's cancellation reaches a body under a detached wrapper context",
			body: func(ctx context.Context, _ *registry.Call, cancel context.CancelFunc) (string, error) {
				cancel()
				select {
				case <-ctx.Done():
					return "saw cancellation", nil
				case <-time.After(hangGuard):
					return "", errors.New("the body never saw the caller's cancellation")
				}
			},
			setup: func(f *fixture, _ context.CancelFunc) {
				f.p.UseExecute(nil, func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
					return next(context.WithoutCancel(ctx))
				})
			},
			want:   wantAborted,
			bodies: 1,
		},
		{
			name: "C63 an uncooperative body is awaited within the body grace before ABORTED",
			body: func(ctx context.Context, call *registry.Call, cancel context.CancelFunc) (string, error) {
				cancel()
				time.Sleep(20 * time.Millisecond) // ignores ctx on purpose
				call.DeferContext(registry.UserContext("finished"))
				return "late", nil
			},
			want:   withContextsWant(wantAborted, "finished"),
			bodies: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var approver pipeline.Approver = pipeline.ApproverFunc(func(ctx context.Context, _ pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
				cancel()
				<-ctx.Done()
				return pipeline.ApprovalCancelled, nil
			})
			// A long grace: every body here returns by itself, and is
			// waited for (TestStuckBodyIsAbandoned covers one that does not).
			f := newFixture(t, pipeline.Options{Approver: approver, BodyGrace: time.Hour})
			bodies := 0
			f.echo(t, func(s *echoSpec) {
				s.Handler = func(ctx context.Context, call *registry.Call, a textArgs) (string, error) {
					bodies++
					if tt.body != nil {
						return tt.body(ctx, call, cancel)
					}
					return a.Text, nil
				}
			})
			if tt.setup != nil {
				tt.setup(f, cancel)
			}
			if tt.preCanc {
				cancel()
			}
			check(t, f.run(ctx, "echo", `{"text":"hi"}`), tt.want)
			if bodies != tt.bodies {
				t.Errorf("body ran %d times, want %d", bodies, tt.bodies)
			}
			if n := len(f.results()); n != 1 {
				t.Errorf("observers saw %d results, want 1", n)
			}
		})
	}
}

func withContextsWant(w want, contexts ...string) want {
	w.contexts = contexts
	return w
}

func TestPostExecuteSeesTheCallerContext(t *testing.T) {
	// C62, P4: post-execute gets the caller's context back, not the one a
	// wrapper replaced.
	type key struct{}
	f := newFixture(t, pipeline.Options{})
	f.echo(t, nil)
	f.p.UseExecute(nil, func(ctx context.Context, _ *registry.Call, next pipeline.ExecuteNext) (pipeline.Result, error) {
		return next(context.WithValue(ctx, key{}, "wrapper"))
	})
	var postSaw any
	f.p.UsePostExecute(nil, func(ctx context.Context, _ *registry.Call, _ pipeline.Result, next pipeline.PostNext) (pipeline.PostDecision, error) {
		postSaw = ctx.Value(key{})
		return next(ctx)
	})
	caller := context.WithValue(context.Background(), key{}, "caller")
	f.run(caller, "echo", `{"text":"x"}`)
	if postSaw != "caller" {
		t.Errorf("post-execute saw context value %v, want the caller's", postSaw)
	}
}

func TestMaterializationFailureWinsOverCancellation(t *testing.T) {
	// C65.
	f := newFixture(t, pipeline.Options{})
	f.echo(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := f.run(ctx, "echo", `{"n":1e999}`)
	if !r.IsError || r.Code() != "" || text(r)[:68] != "Error: tool execution arguments must be losslessly JSON-serializable" {
		t.Errorf("result = %+v", r)
	}
}
