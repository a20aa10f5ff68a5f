package live

import (
	"context"

	"github.com/dsh-acp/dsh-acp/session"
)

// Checkpoints keep the workspace as each turn found and left it, so that
// /undo can put back what a turn changed.
type Checkpoints interface {
	// Checkpoint records the workspace before a turn named label; finish
	// records it as the turn left it (called when the turn ends, cancelled
	// or not), which Undo compares with.
	Checkpoint(ctx context.Context, label string) (finish func(context.Context) error, err error)
	// Undo reverts the files the last checkpointed turn changed, where
	// they are still what the turn left, and says what it did.
	Undo(ctx context.Context) (Undone, error)
	// Latest returns the label of the turn Undo would revert next, as
	// Checkpoint was given it; ok is false when there is none.
	Latest(ctx context.Context) (label string, ok bool, err error)
}

// Undone is what an /undo did.
type Undone struct {
	// Turn is false when there was no turn left to undo.
	Turn bool
	// Files are the files put back as they were before the turn.
	Files []session.FileRestored
	// Conflicts are the files the turn changed that changed again since
	// (the user, the editor, another session): left as they are.
	Conflicts []UndoConflict
	// Note is what the undo cannot cover, or "".
	Note string
}

// UndoConflict is a file /undo left as it is, and why.
type UndoConflict struct {
	Path   string // absolute
	Reason string // a phrase: "it changed after the turn"
}
