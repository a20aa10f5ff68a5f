package live_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// blockingModel runs a turn until its context ends, saying when it
// started; Compact returns at once.
type blockingModel struct {
	started chan struct{}
}

func (m *blockingModel) Prompt(ctx context.Context, _ []presentation.ContentBlock) (session.StopReason, error) {
	m.started <- struct{}{}
	<-ctx.Done()
	return session.StopCancelled, nil
}

func (m *blockingModel) Compact(context.Context) (int, error) { return 3, nil }

// quickModel ends each turn at once.
type quickModel struct{}

func (quickModel) Prompt(context.Context, []presentation.ContentBlock) (session.StopReason, error) {
	return session.StopEndTurn, nil
}

func (quickModel) Compact(context.Context) (int, error) { return 0, nil }

// recordingCheckpoints records what was asked of it, in order.
type recordingCheckpoints struct {
	mu     sync.Mutex
	calls  []string
	undone live.Undone
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

func TestOneTurnAtATime(t *testing.T) {
	model := &blockingModel{started: make(chan struct{}, 1)}
	s := newSession(t, live.Parts{Model: model})
	answer := startTurn(t, s, model)
	if !s.Busy() {
		t.Error("Busy is false while a turn runs")
	}
	if _, err := s.Prompt(context.Background(), nil); !errors.Is(err, live.ErrTurnRunning) {
		t.Errorf("a second prompt = %v, want ErrTurnRunning", err)
	}
	_, err := s.Run(context.Background(), func(ctx context.Context, tr *live.Turn) (session.StopReason, error) {
		_, err := tr.Compact(ctx)
		return session.StopEndTurn, err
	})
	if !errors.Is(err, live.ErrTurnRunning) {
		t.Errorf("a /compact during a turn = %v, want ErrTurnRunning", err)
	}
	s.Cancel()
	if err := <-answer; err != nil {
		t.Error(err)
	}
	if s.Busy() {
		t.Error("Busy is true after the turn ended")
	}
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

func TestNoticesAreLoggedAtTheNextTurn(t *testing.T) {
	pending := []string{"the MCP server \"web\" failed"}
	s := newSession(t, live.Parts{Model: quickModel{}, Notices: func() []string {
		out := pending
		pending = nil
		return out
	}})
	for range 2 {
		if _, err := s.Prompt(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	var notices []string
	for _, ev := range s.Log().Events() {
		if n, ok := ev.Payload.(session.Notice); ok {
			notices = append(notices, n.Text)
		}
	}
	if len(notices) != 1 {
		t.Errorf("notices logged = %q, want the one, once", notices)
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
