package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"sync"

	"github.com/dsh-acp/dsh-acp/checkpoint"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// undoHistory is a session's undo: checkpoints of its first root in a
// shadow git repository, opened at the first turn (a session that is
// never prompted costs nothing; the first snapshot of a project takes a
// while, later ones are quick), or, without git, the file tools'
// pre-images.
type undoHistory struct {
	opts checkpoint.Options

	mu     sync.Mutex
	undoer checkpoint.Undoer
}

// newUndoHistory prepares the undo of a session rooted at root. With git
// it returns files unchanged; without git it wraps files so that writes
// keep their pre-images.
func newUndoHistory(root, stateDir, sessionID string, files workspace.FileSystem, logger *slog.Logger) (*undoHistory, workspace.FileSystem) {
	h := &undoHistory{opts: checkpoint.Options{Root: root, StateDir: stateDir, Stack: sessionID, Logger: logger}}
	if _, err := exec.LookPath("git"); err != nil {
		pre := checkpoint.NewPreImages(files, checkpoint.PreImagesOptions{})
		h.undoer = pre
		return h, pre.Files()
	}
	return h, files
}

// wait returns the undoer, opening the shadow repository the first time.
func (h *undoHistory) wait(ctx context.Context) (checkpoint.Undoer, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.undoer == nil {
		cp, err := checkpoint.Open(ctx, h.opts)
		if err != nil {
			return nil, err
		}
		h.undoer = cp
	}
	return h.undoer, nil
}

// Checkpoint records the workspace before a turn; finish records it as
// the turn left it, which /undo compares with.
func (h *undoHistory) Checkpoint(ctx context.Context, label string) (finish func(context.Context) error, err error) {
	u, err := h.wait(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := u.Push(ctx, label); err != nil {
		return nil, err
	}
	return func(ctx context.Context) error {
		_, err := u.Finish(ctx)
		return err
	}, nil
}

// Undo reverts what the last recorded turn changed, where nothing
// changed it since.
func (h *undoHistory) Undo(ctx context.Context) (live.Undone, error) {
	u, err := h.wait(ctx)
	if err != nil {
		return live.Undone{}, fmt.Errorf("undo is not available: %w", err)
	}
	r, err := u.Undo(ctx)
	if errors.Is(err, checkpoint.ErrNothingToUndo) {
		return live.Undone{}, nil
	}
	if err != nil {
		return live.Undone{}, err
	}
	undone := live.Undone{Turn: true, Note: undoNote(r)}
	for _, c := range r.Changes {
		undone.Files = append(undone.Files, session.FileRestored{Path: c.Path, Before: c.Before, After: c.After, Binary: c.Binary || c.Link})
	}
	for _, c := range r.Conflicts {
		undone.Conflicts = append(undone.Conflicts, live.UndoConflict{Path: c.Path, Reason: string(c.Reason)})
	}
	return undone, nil
}

// Latest returns the label of the last recorded turn, the one Undo
// reverts next.
func (h *undoHistory) Latest(ctx context.Context) (label string, ok bool, err error) {
	u, err := h.wait(ctx)
	if err != nil {
		return "", false, fmt.Errorf("undo is not available: %w", err)
	}
	list, err := u.List(ctx)
	if err != nil || len(list) == 0 {
		return "", false, err
	}
	return list[0].Label, true, nil
}

// close releases what the history holds between turns.
func (h *undoHistory) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if c, ok := h.undoer.(*checkpoint.Checkpoints); ok {
		c.Close()
	}
}

// undoNote says what an undo left alone besides the conflicts, and why.
func undoNote(r checkpoint.Restored) string {
	var notes []string
	if r.Note != "" {
		notes = append(notes, capitalize(r.Note)+".")
	}
	if len(r.Untouched) > 0 {
		left := make([]string, len(r.Untouched))
		for i, s := range r.Untouched {
			left[i] = fmt.Sprintf("%s (%s)", s.Path, s.Reason)
		}
		notes = append(notes, "Not recorded, so left as they are: "+strings.Join(left, ", ")+".")
	}
	return strings.Join(notes, " ")
}

// capitalize returns s with its first letter in upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
