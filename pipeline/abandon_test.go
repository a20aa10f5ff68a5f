package pipeline_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
)

// hangGuard bounds how long a test waits for a call that should end; it
// only turns a hang into a failure, it never decides a result.
const hangGuard = 2 * time.Minute

// stuckBody is a tool body that blocks where its context cannot reach it
// (as a read of a FIFO does) until the test releases it, and then tries
// to change its call: a late context, a late report, a late success.
type stuckBody struct {
	entered  chan struct{}
	release  chan struct{}
	returned chan struct{}
}

func newStuckBody(t *testing.T) *stuckBody {
	b := &stuckBody{entered: make(chan struct{}), release: make(chan struct{}), returned: make(chan struct{})}
	// Unblock the body at the end so no goroutine outlives the test.
	t.Cleanup(b.finish)
	return b
}

func (b *stuckBody) handler(_ context.Context, call *registry.Call, _ textArgs) (string, error) {
	defer close(b.returned)
	close(b.entered)
	<-b.release // ignores its context on purpose
	call.DeferContext(registry.UserContext("late context"))
	call.Report(registry.Progress{Output: "late output"})
	call.ConcludeTurn()
	return "late success", nil
}

// finish releases the body and waits until it has returned.
func (b *stuckBody) finish() {
	select {
	case <-b.release:
	default:
		close(b.release)
	}
	select {
	case <-b.entered:
		<-b.returned
	default:
	}
}

// TestStuckBodyIsAbandoned: a body that ignores its context no longer
// holds the call's result. With Dispatch on a goroutine of its own, once
// the caller cancels (ABORTED) or the tool's timeout passes (TOOL_TIMEOUT)
// and the grace is over, the call is settled and finishes without it;
// what the body does when it finally returns changes nothing.
func TestStuckBodyIsAbandoned(t *testing.T) {
	timedOut := want{content: "Error: tool call timed out after 20ms", isError: true, code: registry.CodeToolTimeout, value: "-"}
	tests := []struct {
		name    string
		grace   time.Duration
		timeout time.Duration
		cancel  bool
		want    want
	}{
		{name: "cancelled, abandoned at once", grace: -1, cancel: true, want: wantAborted},
		{name: "cancelled, abandoned after the default grace", cancel: true, want: wantAborted},
		{name: "timed out, abandoned at once", grace: -1, timeout: 20 * time.Millisecond, want: timedOut},
		{name: "timed out, abandoned after a short grace", grace: 10 * time.Millisecond, timeout: 20 * time.Millisecond, want: timedOut},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := newStuckBody(t)
			f := newFixture(t, pipeline.Options{BodyGrace: tt.grace})
			f.echo(t, func(s *echoSpec) {
				s.Timeout = tt.timeout
				s.Handler = body.handler
			})
			var mu sync.Mutex
			var reports []string
			in := pipeline.Input{CallID: "call_1", Name: "echo", Arguments: `{"text":"x"}`, Scope: f.agent,
				OnProgress: func(p registry.Progress) {
					mu.Lock()
					defer mu.Unlock()
					reports = append(reports, p.Output)
				},
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			x := f.p.Prepare(ctx, in)
			dispatched := make(chan struct{})
			go func() {
				defer close(dispatched)
				x.Dispatch()
			}()
			t.Cleanup(func() {
				body.finish()
				<-dispatched
			})
			<-body.entered
			if tt.cancel {
				cancel()
			}
			select {
			case <-x.Settled():
			case <-time.After(hangGuard):
				t.Fatal("the call waited for a body stuck past its cancellation or timeout")
			}
			r := x.Finish()
			check(t, r, tt.want)

			// The body finishes late: nothing it does reaches anyone.
			body.finish()
			<-dispatched
			check(t, x.Finish(), tt.want)
			mu.Lock()
			defer mu.Unlock()
			if len(reports) != 0 {
				t.Errorf("a report made after the call ended was delivered: %q", reports)
			}
			if n := len(f.results()); n != 1 {
				t.Errorf("observers saw %d results, want 1", n)
			}
			check(t, f.results()[0], tt.want)
		})
	}
}

// TestCooperativeBodyKeepsItsResultWithinTheGrace: a body that honours
// its cancellation within the grace is waited for, so its own failure
// (a command saying what it stopped) and its contexts reach the model.
func TestCooperativeBodyKeepsItsResultWithinTheGrace(t *testing.T) {
	f := newFixture(t, pipeline.Options{BodyGrace: time.Hour})
	entered := make(chan struct{})
	f.echo(t, func(s *echoSpec) {
		s.Handler = func(ctx context.Context, call *registry.Call, _ textArgs) (string, error) {
			close(entered)
			<-ctx.Done()
			call.DeferContext(registry.UserContext("stopped cleanly"))
			return "", &registry.Error{Code: "CMD_STOPPED", Message: "the command was stopped"}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-entered
		cancel()
	}()
	check(t, f.run(ctx, "echo", `{"text":"x"}`), want{content: "Error: the command was stopped", isError: true, code: "CMD_STOPPED", value: "-", contexts: []string{"stopped cleanly"}})
}

// TestExecuteAbandonsAStuckBodyItWaitsFor: Execute runs the body on the
// caller's goroutine, so a stuck body holds it; but the call is abandoned
// all the same, and when the body finally returns Execute answers as the
// abandoned call did, with nothing the body did late.
func TestExecuteAbandonsAStuckBodyItWaitsFor(t *testing.T) {
	body := newStuckBody(t)
	abandoned := make(chan struct{}, 1)
	f := newFixture(t, pipeline.Options{BodyGrace: -1, Logger: slog.New(signalHandler{abandoned})})
	f.echo(t, func(s *echoSpec) { s.Handler = body.handler })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := make(chan pipeline.Result, 1)
	go func() {
		results <- f.p.Execute(ctx, pipeline.Input{CallID: "call_1", Name: "echo", Arguments: `{"text":"x"}`})
	}()
	<-body.entered
	cancel()
	<-abandoned
	select {
	case r := <-results:
		t.Fatalf("Execute returned %+v while its body was still running", r)
	default:
	}
	body.finish()
	check(t, <-results, wantAborted)
}

// TestSettled: Settled is closed once the result is settled, whoever
// settled it, whether asked for before or after.
func TestSettled(t *testing.T) {
	deny := func(context.Context, *registry.Call, pipeline.PreNext) (pipeline.Decision, error) {
		return pipeline.Deny("no"), nil
	}
	tests := []struct {
		name         string
		deny         bool
		askFirst     bool
		wantDispatch bool
	}{
		{name: "ended by Prepare", deny: true},
		{name: "asked for after Dispatch", wantDispatch: true},
		{name: "asked for before Dispatch", askFirst: true, wantDispatch: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, pipeline.Options{})
			f.echo(t, nil)
			if tt.deny {
				f.p.UsePreExecute(nil, deny)
			}
			x := f.p.Prepare(context.Background(), pipeline.Input{CallID: "call_1", Name: "echo", Arguments: `{"text":"x"}`})
			if x.NeedsDispatch() != tt.wantDispatch {
				t.Fatalf("NeedsDispatch = %v, want %v", x.NeedsDispatch(), tt.wantDispatch)
			}
			var settled <-chan struct{}
			if tt.askFirst {
				settled = x.Settled()
				select {
				case <-settled:
					t.Fatal("Settled closed before Dispatch")
				default:
				}
			}
			x.Dispatch()
			if settled == nil {
				settled = x.Settled()
			}
			select {
			case <-settled:
			default:
				t.Fatal("Settled still open after the result was settled")
			}
		})
	}
}

// signalHandler is a slog handler that signals each warning on c.
type signalHandler struct{ c chan struct{} }

func (h signalHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h signalHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		select {
		case h.c <- struct{}{}:
		default:
		}
	}
	return nil
}

func (h signalHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h signalHandler) WithGroup(string) slog.Handler      { return h }
