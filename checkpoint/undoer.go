package checkpoint

import "context"

// Undoer is what a session needs for /undo; Checkpoints and PreImages
// both are one.
type Undoer interface {
	// Push records the workspace before a turn.
	Push(ctx context.Context, label string) (Checkpoint, error)
	// Finish records the workspace as the turn left it; call it when the
	// turn ends, cancelled or not.
	Finish(ctx context.Context) (Checkpoint, error)
	// Undo reverts what the last turn changed, where nothing changed it
	// since, lists the rest as conflicts, and forgets the turn.
	Undo(ctx context.Context) (Restored, error)
	// List returns the turns that can be undone, newest first.
	List(ctx context.Context) ([]Checkpoint, error)
}

var (
	_ Undoer = (*Checkpoints)(nil)
	_ Undoer = (*PreImages)(nil)
)
