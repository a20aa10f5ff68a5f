package checkpoint

import "context"

// Undoer is what a session needs for /undo; Checkpoints and PreImages
// both are one.
type Undoer interface {
	// Push records the workspace before a turn.
	Push(ctx context.Context, label string) (Checkpoint, error)
	// Undo puts back what the last turn changed and forgets its record.
	Undo(ctx context.Context) (Restored, error)
	// List returns the turns that can be undone, newest first.
	List(ctx context.Context) ([]Checkpoint, error)
}

var (
	_ Undoer = (*Checkpoints)(nil)
	_ Undoer = (*PreImages)(nil)
)
