package live_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// blockingModel runs a turn until its context ends, saying when it
// started; Compact returns at once.
type blockingModel struct {
	started chan struct{}
}

func (m *blockingModel) PromptSteered(ctx context.Context, _ []presentation.ContentBlock, _ agent.Steering) (session.StopReason, error) {
	m.started <- struct{}{}
	<-ctx.Done()
	return session.StopCancelled, nil
}

func (m *blockingModel) Compact(context.Context) (int, error) { return 3, nil }

// quickModel ends each turn at once.
type quickModel struct{}

func (quickModel) PromptSteered(context.Context, []presentation.ContentBlock, agent.Steering) (session.StopReason, error) {
	return session.StopEndTurn, nil
}

func (quickModel) Compact(context.Context) (int, error) { return 0, nil }

// recordingCheckpoints records what was asked of it, in order.
type recordingCheckpoints struct {
	mu     sync.Mutex
	calls  []string
	undone live.Undone
	latest string // Latest's label; "" when there is none
}

func (c *recordingCheckpoints) record(call string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, call)
}

func (c *recordingCheckpoints) Checkpoint(_ context.Context, label string) (func(context.Context) error, error) {
	c.record(label)
	return func(ctx context.Context) error {
		if ctx.Err() != nil {
			c.record("finish with an ended context")
			return ctx.Err()
		}
		c.record("finish")
		return nil
	}, nil
}

func (c *recordingCheckpoints) Undo(context.Context) (live.Undone, error) {
	c.record("undo")
	return c.undone, nil
}

func (c *recordingCheckpoints) Latest(context.Context) (string, bool, error) {
	c.record("latest")
	return c.latest, c.latest != "", nil
}

func (c *recordingCheckpoints) recorded() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.calls)
}

func newSession(t *testing.T, parts live.Parts) *live.Session {
	t.Helper()
	if parts.Log == nil {
		parts.Log = session.NewLog(nil)
	}
	s, err := live.New(parts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// startTurn starts a turn of a session built on model in the background
// and returns, once the model runs, the channel its answer arrives on.
func startTurn(t *testing.T, s *live.Session, model *blockingModel) <-chan error {
	t.Helper()
	answer := make(chan error, 1)
	go func() {
		reason, err := s.Prompt(context.Background(), nil)
		if err == nil && reason != session.StopCancelled {
			err = errors.New("the turn ended " + string(reason) + ", want cancelled")
		}
		answer <- err
	}()
	<-model.started
	return answer
}

func TestNewRefusesMissingParts(t *testing.T) {
	for name, parts := range map[string]live.Parts{
		"no model": {Log: session.NewLog(nil)},
		"no log":   {Model: quickModel{}},
	} {
		if _, err := live.New(parts); err == nil {
			t.Errorf("%s: New succeeded", name)
		}
	}
}

// orderedModel blocks each turn until released, and records the order
// the turns ran in by their first text.
type orderedModel struct {
	started chan string
	release chan struct{}
}

func (m *orderedModel) PromptSteered(ctx context.Context, content []presentation.ContentBlock, _ agent.Steering) (session.StopReason, error) {
	m.started <- presentation.JoinText(content)
	select {
	case <-m.release:
		return session.StopEndTurn, nil
	case <-ctx.Done():
		return session.StopCancelled, nil
	}
}

func (m *orderedModel) Compact(context.Context) (int, error) { return 0, nil }

// prompted starts a prompt of text in the background; its stop reason
// arrives on the channel returned.
func prompted(s *live.Session, text string) <-chan session.StopReason {
	out := make(chan session.StopReason, 1)
	go func() {
		reason, err := s.Prompt(context.Background(), []presentation.ContentBlock{presentation.Text(text)})
		if err != nil {
			reason = session.StopReason("error: " + err.Error())
		}
		out <- reason
	}()
	return out
}

func TestTurnsAskedForWhileOneRunsRunInOrder(t *testing.T) {
	model := &orderedModel{started: make(chan string), release: make(chan struct{})}
	s := newSession(t, live.Parts{Model: model})
	first := prompted(s, "first")
	if got := <-model.started; got != "first" {
		t.Fatalf("the first turn to run was %q", got)
	}
	if !s.Busy() {
		t.Error("Busy is false while a turn runs")
	}
	second := prompted(s, "second")
	live.WaitQueued(s, 1)
	third := prompted(s, "third")
	live.WaitQueued(s, 2)
	for i, want := range []string{"second", "third"} {
		model.release <- struct{}{}
		if got := <-model.started; got != want {
			t.Errorf("turn %d to run: %q, want %q", i+2, got, want)
		}
	}
	model.release <- struct{}{}
	for name, answer := range map[string]<-chan session.StopReason{"first": first, "second": second, "third": third} {
		if got := <-answer; got != session.StopEndTurn {
			t.Errorf("%s ended %q", name, got)
		}
	}
	if s.Busy() {
		t.Error("Busy is true after every turn ended")
	}
}

func TestCancelEndsTheRunningTurnAndTheQueued(t *testing.T) {
	model := &orderedModel{started: make(chan string), release: make(chan struct{})}
	s := newSession(t, live.Parts{Model: model})
	first := prompted(s, "first")
	<-model.started
	queued := prompted(s, "queued")
	live.WaitQueued(s, 1)
	s.Cancel()
	if got := <-first; got != session.StopCancelled {
		t.Errorf("the running turn ended %q", got)
	}
	if got := <-queued; got != session.StopCancelled {
		t.Errorf("the queued turn ended %q", got)
	}
	after := prompted(s, "after") // a prompt after the cancel runs
	if got := <-model.started; got != "after" {
		t.Errorf("ran %q after the cancel", got)
	}
	model.release <- struct{}{}
	if got := <-after; got != session.StopEndTurn {
		t.Errorf("the prompt after the cancel ended %q", got)
	}
}

func TestAQueuedTurnWhoseContextEndsLeavesTheQueue(t *testing.T) {
	model := &orderedModel{started: make(chan string), release: make(chan struct{})}
	s := newSession(t, live.Parts{Model: model})
	first := prompted(s, "first")
	<-model.started
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan session.StopReason, 1)
	go func() {
		reason, _ := s.Prompt(ctx, []presentation.ContentBlock{presentation.Text("gone")})
		gone <- reason
	}()
	live.WaitQueued(s, 1)
	cancel()
	if got := <-gone; got != session.StopCancelled {
		t.Errorf("the abandoned turn ended %q", got)
	}
	next := prompted(s, "next")
	model.release <- struct{}{}
	if got := <-model.started; got != "next" {
		t.Errorf("ran %q after the first, want next (the abandoned one left the queue)", got)
	}
	model.release <- struct{}{}
	<-first
	<-next
}

func TestAPromptAfterCancelWaitsForTheCancelledTurn(t *testing.T) {
	model := &blockingModel{started: make(chan struct{}, 1)}
	s := newSession(t, live.Parts{Model: model})
	first := startTurn(t, s, model)
	s.Cancel()
	second := startTurn(t, s, model) // served, not refused, once the first ended
	if err := <-first; err != nil {
		t.Errorf("the cancelled turn: %v", err)
	}
	s.Cancel()
	if err := <-second; err != nil {
		t.Errorf("the next turn: %v", err)
	}
}

func TestCheckpointsAroundEachModelTurn(t *testing.T) {
	cp := &recordingCheckpoints{}
	model := &blockingModel{started: make(chan struct{}, 1)}
	s := newSession(t, live.Parts{Model: model, Checkpoints: cp})
	answer := startTurn(t, s, model)
	s.Cancel()
	if err := <-answer; err != nil {
		t.Fatal(err)
	}
	want := []string{"before turn 1", "finish"} // taken even though the turn was cancelled
	if got := cp.recorded(); !slices.Equal(got, want) {
		t.Errorf("checkpoints = %q, want %q", got, want)
	}
	if !s.CanUndo() {
		t.Error("CanUndo is false with checkpoints")
	}
	if newSession(t, live.Parts{Model: quickModel{}}).CanUndo() {
		t.Error("CanUndo is true without checkpoints")
	}
}

func TestUndoLogsWhatItPutBack(t *testing.T) {
	cp := &recordingCheckpoints{undone: live.Undone{Turn: true,
		Files:     []session.FileRestored{{Path: "/p/a.txt"}},
		Conflicts: []live.UndoConflict{{Path: "/p/b.txt", Reason: "it changed after the turn"}}}}
	s := newSession(t, live.Parts{Model: quickModel{}, Checkpoints: cp})
	var undone live.Undone
	_, err := s.Run(context.Background(), func(ctx context.Context, tr *live.Turn) (session.StopReason, error) {
		var err error
		undone, err = tr.Undo(ctx)
		return session.StopEndTurn, err
	})
	if err != nil || len(undone.Files) != 1 {
		t.Fatalf("Undo = %+v, %v", undone, err)
	}
	var restored, told bool
	for _, ev := range s.Log().Events() {
		switch p := ev.Payload.(type) {
		case session.FilesRestored:
			restored = len(p.Files) == 1 && p.Files[0].Path == "/p/a.txt"
		case session.ContextMessage:
			text := presentation.JoinText(p.Message.Content)
			told = containsAll(text, "/p/a.txt", "/p/b.txt")
		}
	}
	if !restored || !told {
		t.Errorf("logged restored=%v, told the model=%v", restored, told)
	}
	withoutCheckpoints := newSession(t, live.Parts{Model: quickModel{}})
	_, err = withoutCheckpoints.Run(context.Background(), func(ctx context.Context, tr *live.Turn) (session.StopReason, error) {
		_, err := tr.Undo(ctx)
		return session.StopEndTurn, err
	})
	if !errors.Is(err, live.ErrNoUndo) {
		t.Errorf("Undo without checkpoints = %v, want ErrNoUndo", err)
	}
}

// notices returns the texts of the notices s logged.
func notices(s *live.Session) []string {
	var out []string
	for _, ev := range s.Log().Events() {
		if n, ok := ev.Payload.(session.Notice); ok {
			out = append(out, n.Text)
		}
	}
	return out
}

func TestNoticesWaitForTheNextTurn(t *testing.T) {
	s := newSession(t, live.Parts{Model: quickModel{}})
	s.Tell(`the MCP server "web" failed`)
	if got := notices(s); len(got) != 0 {
		t.Errorf("a notice was logged before any turn: %q", got)
	}
	for range 2 {
		if _, err := s.Prompt(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := notices(s); len(got) != 1 {
		t.Errorf("notices logged = %q, want the one, once", got)
	}
}

func TestNoticesAtOnce(t *testing.T) {
	s := newSession(t, live.Parts{Model: quickModel{}})
	s.Tell("kept")
	s.TellAtOnce()
	if got := notices(s); !slices.Equal(got, []string{"kept"}) {
		t.Errorf("TellAtOnce logged %q, want what was kept", got)
	}
	s.Tell("at once")
	if got := notices(s); !slices.Equal(got, []string{"kept", "at once"}) {
		t.Errorf("notices = %q, want the new one logged at once", got)
	}
	if _, err := s.Prompt(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if got := notices(s); len(got) != 2 {
		t.Errorf("a turn logged the notices again: %q", got)
	}
}

func TestCloseCancelsAwaitsAndStopsOnce(t *testing.T) {
	model := &blockingModel{started: make(chan struct{}, 1)}
	stops := 0
	s, err := live.New(live.Parts{Model: model, Log: session.NewLog(nil), Stop: func() { stops++ }})
	if err != nil {
		t.Fatal(err)
	}
	answer := startTurn(t, s, model)
	s.Close() // returns once the turn ended
	if s.Busy() {
		t.Error("Close returned before the running turn ended")
	}
	if err := <-answer; err != nil {
		t.Error(err)
	}
	s.Close()
	if stops != 1 {
		t.Errorf("Stop ran %d times, want once", stops)
	}
	if _, err := s.Prompt(context.Background(), nil); !errors.Is(err, live.ErrClosed) {
		t.Errorf("a prompt after Close = %v, want ErrClosed", err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
