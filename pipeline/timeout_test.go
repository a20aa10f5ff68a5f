package pipeline_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
)

var wantTimeout = want{content: "Error: tool call timed out after 20ms", isError: true, code: registry.CodeToolTimeout, value: "-"}

func TestTimeoutPolicy(t *testing.T) {
	type deadlineKey struct{}
	tests := []struct {
		name    string
		timeout time.Duration
		body    func(ctx context.Context, cancelCaller context.CancelFunc) (string, error)
		want    want
	}{
		{
			name: "P1 a tool without a budget runs under the caller's context",
			body: func(ctx context.Context, _ context.CancelFunc) (string, error) {
				if _, ok := ctx.Deadline(); ok {
					return "", errors.New("a deadline was set")
				}
				return "ok", nil
			},
			want: want{content: "ok", value: `"ok"`},
		},
		{
			// The budgets of P2 and P3 are an hour: a body that returns at
			// once must not race a deadline a loaded machine can reach.
			name:    "P2 a fast tool keeps its own result",
			timeout: time.Hour,
			body:    func(context.Context, context.CancelFunc) (string, error) { return "fast", nil },
			want:    want{content: "fast", value: `"fast"`},
		},
		{
			name:    "P3 a tool with a budget sees the deadline",
			timeout: time.Hour,
			body: func(ctx context.Context, _ context.CancelFunc) (string, error) {
				if _, ok := ctx.Deadline(); !ok {
					return "", errors.New("no deadline")
				}
				return "ok", nil
			},
			want: want{content: "ok", value: `"ok"`},
		},
		{
			name:    "P5 the deadline wins",
			timeout: 20 * time.Millisecond,
			body: func(ctx context.Context, _ context.CancelFunc) (string, error) {
				<-ctx.Done()
				return "cooperative success", nil
			},
			want: wantTimeout,
		},
		{
			name:    "P6 a provider abort error is replaced",
			timeout: 20 * time.Millisecond,
			body: func(ctx context.Context, _ context.CancelFunc) (string, error) {
				<-ctx.Done()
				return "", &registry.Error{Code: "WEB_ABORTED", Message: "request aborted"}
			},
			want: wantTimeout,
		},
		{
			name:    "P7 a caller abort that comes first stays ABORTED",
			timeout: time.Hour,
			body: func(ctx context.Context, cancel context.CancelFunc) (string, error) {
				cancel()
				<-ctx.Done()
				return "late", nil
			},
			want: wantAborted,
		},
		{
			name:    "P8 a deadline before a later caller abort stays TOOL_TIMEOUT",
			timeout: 20 * time.Millisecond,
			body: func(ctx context.Context, cancel context.CancelFunc) (string, error) {
				<-ctx.Done()
				cancel()
				return "", ctx.Err()
			},
			want: wantTimeout,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// A long grace: every body here returns by itself once its
			// context ends, and what it returns is what each case is
			// about, so it must be waited for however loaded the machine
			// (TestStuckBodyIsAbandoned covers a body that does not return).
			f := newFixture(t, pipeline.Options{BodyGrace: time.Hour})
			f.echo(t, func(s *echoSpec) {
				s.Timeout = tt.timeout
				s.Handler = func(ctx context.Context, _ *registry.Call, _ textArgs) (string, error) { return tt.body(ctx, cancel) }
			})
			var postDeadline bool
			f.p.UsePostExecute(nil, func(ctx context.Context, _ *registry.Call, _ pipeline.Result, next pipeline.PostNext) (pipeline.PostDecision, error) {
				_, postDeadline = ctx.Deadline()
				return next(ctx)
			})
			check(t, f.run(ctx, "echo", `{"text":"x"}`), tt.want)
			if postDeadline {
				t.Errorf("P4: post-execute saw the tool's deadline instead of the caller's context")
			}
		})
	}
}

func TestTimeoutConstants(t *testing.T) {
	// P9, P10: the code is TOOL_TIMEOUT; the policy can be left out.
	if registry.CodeToolTimeout != "TOOL_TIMEOUT" {
		t.Errorf("code = %q", registry.CodeToolTimeout)
	}
	f := newFixture(t, pipeline.Options{NoTimeoutPolicy: true})
	f.echo(t, func(s *echoSpec) {
		s.Timeout = time.Millisecond
		s.Handler = func(ctx context.Context, _ *registry.Call, _ textArgs) (string, error) {
			if _, ok := ctx.Deadline(); ok {
				return "", errors.New("a deadline was set without the policy")
			}
			return "ok", nil
		}
	})
	check(t, f.run(context.Background(), "echo", `{"text":"x"}`), want{content: "ok", value: `"ok"`})
}
