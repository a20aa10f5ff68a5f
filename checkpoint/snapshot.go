package checkpoint

import (
	"context"
	"errors"
)

// Snapshot records the workspace as it is now and returns the checkpoint,
// with the files it left out in Skipped. It is on no stack: it stays
// available at least until git's garbage collection prunes unreferenced
// objects older than two weeks; Push keeps one on the stack instead.
func (c *Checkpoints) Snapshot(ctx context.Context, label string) (Checkpoint, error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	defer unlock()
	rec, err := c.snapshot(ctx, label, nil)
	return rec.cp, err
}

// snapshot stages the work tree and commits it, with the names of the
// other stacks' turns running now; the caller holds the lock.
func (c *Checkpoints) snapshot(ctx context.Context, label string, running []string) (record, error) {
	st, err := c.stage(ctx)
	if err != nil {
		return record{}, err
	}
	rec, err := c.commit(ctx, st, label, running)
	if err != nil {
		return record{}, err
	}
	c.opts.Logger.Debug("checkpoint taken", "root", c.root, "id", rec.cp.ID, "label", rec.cp.Label, "skipped", len(rec.skipped))
	return rec, nil
}

// Changes returns the files that differ from checkpoint from (Before) to
// checkpoint to (After), or to the workspace as it is now when to is "",
// sorted by path. Files either checkpoint left out are not listed. An
// unknown id fails with ErrUnknownCheckpoint.
func (c *Checkpoints) Changes(ctx context.Context, from, to string) ([]Change, error) {
	if from == "" {
		return nil, errors.New("checkpoint: Changes needs the checkpoint to compare from")
	}
	unlock, err := c.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	a, err := c.readRecord(ctx, from)
	if err != nil {
		return nil, err
	}
	var b staged
	if to == "" {
		if b, err = c.stage(ctx); err != nil {
			return nil, err
		}
	} else {
		rec, err := c.readRecord(ctx, to)
		if err != nil {
			return nil, err
		}
		b = staged{tree: rec.tree, skipped: rec.skipped}
	}
	return c.changesBetween(ctx, a.tree, b.tree, skipSet(a.skipped, b.skipped))
}
