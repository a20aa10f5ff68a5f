package acp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"
	"go.lsp.dev/jsonrpc2"

	"github.com/dsh-acp/dsh-acp/acp"
)

// stoppingMessage is the log message Serve writes when its context has
// ended and it begins to shut down; the tests below wait for it to act
// while the shutdown is under way.
const stoppingMessage = "acp: serve context cancelled; cancelling in-flight requests"

// patientGrace is a ShutdownGrace no test waits out: a drain that does
// not end by itself fails the test's hang guard instead.
const patientGrace = 10 * hangGuard

// TestServeCancelWritesAnswers checks that when Serve's context ends, the
// answer of a request whose handler returns during the shutdown is
// written to the stream before Serve returns (jsonrpc2 drops a response
// written after its Close began).
func TestServeCancelWritesAnswers(t *testing.T) {
	tests := []struct {
		name    string
		request string // sent after initialize, with id 2
		// serve is the agent's handler: it signals started, waits until
		// its ctx is cancelled and Serve has begun to stop, and returns.
		serve func(a *fakeAgent, started chan<- struct{}, stopping <-chan struct{})
		want  string // the answer to id 2, as a substring of its line
	}{
		{
			name:    "prompt result",
			request: `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
			serve: func(a *fakeAgent, started chan<- struct{}, stopping <-chan struct{}) {
				a.prompt = func(ctx context.Context, _ *acp.Conn, _ acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
					close(started)
					<-ctx.Done()
					<-stopping
					return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, nil
				}
			},
			want: `"result":{"stopReason":"cancelled"}`,
		},
		{
			name:    "error answer",
			request: `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`,
			serve: func(a *fakeAgent, started chan<- struct{}, stopping <-chan struct{}) {
				a.newSession = func(ctx context.Context, _ acp.NewSessionRequest) (acp.NewSessionResponse, error) {
					close(started)
					<-ctx.Done()
					<-stopping
					return acp.NewSessionResponse{}, ctx.Err()
				}
			},
			want: `"error":{"code":-32800`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			started := make(chan struct{})
			logs := newLogWatch(stoppingMessage)
			agent := &fakeAgent{}
			tt.serve(agent, started, logs.seen)

			serverR, clientW := io.Pipe()
			clientR, serverW := io.Pipe()
			lines := readLines(clientR)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			served := make(chan error, 1)
			go func() {
				served <- acp.Serve(ctx, serverR, serverW, agent.bind, acp.Options{Logger: slog.New(logs), ShutdownGrace: patientGrace})
			}()
			if _, err := io.WriteString(clientW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n"+tt.request+"\n"); err != nil {
				t.Fatal(err)
			}
			waitFor(t, started, "the handler to start")
			cancel()
			var err error
			waitFor(t, served, "Serve to return after its context was cancelled", &err)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Serve returned %v, want context.Canceled", err)
			}
			serverW.Close() // the client's EOF
			var got []string
			waitFor(t, lines, "the client to read to EOF", &got)
			if !containsLine(got, `"id":2`, tt.want) {
				t.Errorf("the client read, before EOF:\n%s\nwant the answer to id 2 with %s", strings.Join(got, "\n"), tt.want)
			}
		})
	}
}

// TestServeStoppingRefusesRequests checks a request read while Serve
// drains the answers of earlier ones is refused with a clear error rather
// than run with a cancelled context.
func TestServeStoppingRefusesRequests(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	logs := newLogWatch(stoppingMessage)
	agent := &fakeAgent{prompt: func(ctx context.Context, _ *acp.Conn, _ acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
		close(started)
		<-release
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, nil
	}}
	ran := make(chan struct{}, 1)
	agent.newSession = func(context.Context, acp.NewSessionRequest) (acp.NewSessionResponse, error) {
		ran <- struct{}{}
		return acp.NewSessionResponse{SessionID: "s2"}, nil
	}
	serverR, clientW := io.Pipe()
	clientR, serverW := io.Pipe()
	answers := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(clientR)
		for sc.Scan() {
			answers <- sc.Text()
		}
		close(answers)
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- acp.Serve(ctx, serverR, serverW, agent.bind, acp.Options{Logger: slog.New(logs), ShutdownGrace: patientGrace})
	}()
	if _, err := io.WriteString(clientW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, started, "the prompt to start")
	cancel()
	waitFor(t, logs.seen, "Serve to begin stopping")
	if _, err := io.WriteString(clientW, `{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	refusal := waitLine(t, answers, `"id":3`)
	if !strings.Contains(refusal, `"code":-32603`) || !strings.Contains(refusal, "shutting down") {
		t.Errorf("a request read while stopping was answered %s, want -32603 saying the agent is shutting down", refusal)
	}
	select {
	case <-ran:
		t.Error("a request read while stopping reached the Agent")
	default:
	}
	close(release)
	answer := waitLine(t, answers, `"id":2`)
	waitFor(t, served, "Serve to return")
	serverW.Close()
	for range answers {
	}
	if !strings.Contains(answer, `"stopReason":"cancelled"`) {
		t.Errorf("the prompt was answered %s, want stopReason cancelled", answer)
	}
}

// TestServeStopsWhenClientStopsReading checks that a client which stops
// reading cannot hold the shutdown: a write blocked on it is abandoned
// after Options.ShutdownGrace, the handler waiting on it gets an error,
// and Serve returns.
func TestServeStopsWhenClientStopsReading(t *testing.T) {
	out := &stuckWriter{blocked: make(chan struct{}), unblock: make(chan struct{}), answered: make(chan struct{})}
	defer out.release()
	notified := make(chan error, 1)
	agent := &fakeAgent{prompt: func(ctx context.Context, conn *acp.Conn, _ acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
		notified <- conn.Notify(ctx, "_test/progress", map[string]string{"note": "never read"})
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, nil
	}}
	serverR, clientW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- acp.Serve(ctx, serverR, out, agent.bind, acp.Options{ShutdownGrace: 10 * time.Millisecond})
	}()
	if _, err := io.WriteString(clientW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out.answered, "the initialize answer")
	if _, err := io.WriteString(clientW, `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out.blocked, "the handler's notification to block on the client")
	cancel()
	waitFor(t, served, "Serve to return while a write is blocked on the client")
	var err error
	waitFor(t, notified, "the blocked notification to return", &err)
	if err == nil {
		t.Error("a notification the client never read reported success")
	}
}

// TestServeWriteFailureCancelsHandlers checks a client that closed the
// agent's output (a failed write) ends the connection: every in-flight
// handler's ctx is cancelled with cause ErrDisconnected and Serve returns
// the write error.
func TestServeWriteFailureCancelsHandlers(t *testing.T) {
	causes := make(chan error, 1)
	agent := &fakeAgent{prompt: func(ctx context.Context, conn *acp.Conn, _ acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
		if err := conn.Notify(ctx, "_test/progress", map[string]string{"note": "nobody reads"}); err == nil {
			t.Error("a notification to a closed output reported success")
		}
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return acpsdk.PromptResponse{}, ctx.Err()
	}}
	serverR, clientW := io.Pipe()
	clientR, serverW := io.Pipe()
	initialized := make(chan struct{})
	go func() {
		_, _ = bufio.NewReader(clientR).ReadBytes('\n') // the initialize answer
		close(initialized)
		clientR.Close() // every later write fails
	}()
	served := make(chan error, 1)
	go func() { served <- acp.Serve(context.Background(), serverR, serverW, agent.bind, acp.Options{}) }()
	if _, err := io.WriteString(clientW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, initialized, "the initialize answer")
	if _, err := io.WriteString(clientW, `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	var cause error
	waitFor(t, causes, "the prompt's ctx to be cancelled", &cause)
	if !errors.Is(cause, acp.ErrDisconnected) {
		t.Errorf("the prompt's ctx was cancelled with cause %v, want ErrDisconnected", cause)
	}
	var err error
	waitFor(t, served, "Serve to return", &err)
	if !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("Serve returned %v, want the write error (io.ErrClosedPipe)", err)
	}
}

// TestCancelContextOutlivesNotification checks the ctx Agent.Cancel gets
// is not jsonrpc2's per-request context, which is recycled when the
// notification's handler returns: deriving from it or keeping it after
// Cancel returns must be safe (a recycled one panics "cannot create
// context from nil parent" in a goroutine context.WithCancel started).
func TestCancelContextOutlivesNotification(t *testing.T) {
	got := make(chan context.Context, 1)
	agent := &fakeAgent{cancel: func(ctx context.Context, _ acpsdk.CancelNotification) { got <- ctx }}
	c := newClient(t, agent)
	if err := c.Notify(acpsdk.AgentMethodSessionCancel, acpsdk.CancelNotification{SessionId: "s1"}); err != nil {
		t.Fatal(err)
	}
	var ctx context.Context
	waitFor(t, got, "Cancel", &ctx)
	if jsonrpc2.DetachContext(ctx) != ctx {
		t.Error("Agent.Cancel got jsonrpc2's pooled per-request context; it must get one it may keep")
	}
}

// logWatch is a slog.Handler that closes seen when a record with its
// message arrives.
type logWatch struct {
	msg  string
	once *sync.Once
	seen chan struct{}
}

func newLogWatch(msg string) logWatch {
	return logWatch{msg: msg, once: new(sync.Once), seen: make(chan struct{})}
}

func (w logWatch) Enabled(context.Context, slog.Level) bool { return true }
func (w logWatch) WithAttrs([]slog.Attr) slog.Handler       { return w }
func (w logWatch) WithGroup(string) slog.Handler            { return w }
func (w logWatch) Handle(_ context.Context, r slog.Record) error {
	if r.Message == w.msg {
		w.once.Do(func() { close(w.seen) })
	}
	return nil
}

// stuckWriter takes the first frame (the initialize answer) and blocks
// every later write until release, as a client that stopped reading.
type stuckWriter struct {
	mu       sync.Mutex
	writes   int
	answered chan struct{} // closed after the first write
	blocked  chan struct{} // closed when the second write blocks
	unblock  chan struct{}
	once     sync.Once
}

func (w *stuckWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes++
	n := w.writes
	w.mu.Unlock()
	switch n {
	case 1:
		close(w.answered)
		return len(p), nil
	case 2:
		close(w.blocked)
	}
	<-w.unblock
	return 0, io.ErrClosedPipe
}

// release ends every blocked write (the test's last step, so no goroutine
// outlives it).
func (w *stuckWriter) release() { w.once.Do(func() { close(w.unblock) }) }

// waitLine returns the first line from lines that contains part.
func waitLine(t *testing.T, lines <-chan string, part string) string {
	t.Helper()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the server's output ended before a line with %s", part)
			}
			if strings.Contains(line, part) {
				return line
			}
		case <-time.After(hangGuard):
			t.Fatalf("timed out waiting for a line with %s", part)
		}
	}
}

// readLines reads r's lines until EOF and then sends them all.
func readLines(r io.Reader) <-chan []string {
	out := make(chan []string, 1)
	go func() {
		var lines []string
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		out <- lines
	}()
	return out
}

// containsLine reports whether one of lines is a JSON object containing
// every one of parts.
func containsLine(lines []string, parts ...string) bool {
	for _, line := range lines {
		if !json.Valid([]byte(line)) {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return true
		}
	}
	return false
}

// waitFor waits for a value from ch, or for ch to be closed, and stores
// it in *into when given; the deadline is a hang guard, not a timing
// assertion.
func waitFor[T any](t *testing.T, ch <-chan T, what string, into ...*T) {
	t.Helper()
	select {
	case v := <-ch:
		if len(into) > 0 {
			*into[0] = v
		}
	case <-time.After(hangGuard):
		t.Fatalf("timed out waiting for %s", what)
	}
}
