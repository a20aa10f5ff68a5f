package checkpoint

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// stackEntry is one checkpoint on the stack.
type stackEntry struct {
	ref string // refs/dsh/stacks/<stack>/<n>
	n   int    // its place: larger is newer
	id  string
}

// stackPrefix is where the refs of this value's stack live.
func (c *Checkpoints) stackPrefix() string { return "refs/dsh/stacks/" + c.opts.Stack + "/" }

// Push takes a checkpoint of the workspace as it is now (see Snapshot)
// and puts it on top of the stack, dropping the oldest beyond
// Options.Keep. Call it before each turn that may change files.
func (c *Checkpoints) Push(ctx context.Context, label string) (Checkpoint, error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	defer unlock()
	rec, err := c.snapshot(ctx, label)
	if err != nil {
		return Checkpoint{}, err
	}
	entries, err := c.stackEntries(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	n := 1
	if len(entries) > 0 {
		n = entries[len(entries)-1].n + 1
	}
	if _, err := c.git.run(ctx, nil, "update-ref", c.stackPrefix()+strconv.Itoa(n), rec.cp.ID); err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint: %w", err)
	}
	if drop := len(entries) + 1 - c.opts.Keep; drop > 0 {
		if err := c.deleteRefs(ctx, entries[:drop]); err != nil {
			return Checkpoint{}, err
		}
	}
	// Packs loose objects and prunes what dropped checkpoints alone used,
	// when git finds enough of them; usually it finds nothing to do.
	if _, err := c.git.run(ctx, nil, "gc", "--auto", "--quiet"); err != nil {
		c.opts.Logger.Warn("checkpoint: git gc failed", "root", c.root, "err", err)
	}
	return rec.cp, nil
}

// Undo restores the checkpoint on top of the stack (see Restore) and
// drops it, so that the next Undo goes one turn further back. An empty
// stack fails with ErrNothingToUndo. When restoring fails, the checkpoint
// stays on the stack and what was restored so far is returned with the
// error.
func (c *Checkpoints) Undo(ctx context.Context) (Restored, error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return Restored{}, err
	}
	defer unlock()
	entries, err := c.stackEntries(ctx)
	if err != nil {
		return Restored{}, err
	}
	if len(entries) == 0 {
		return Restored{}, fmt.Errorf("checkpoint: %w", ErrNothingToUndo)
	}
	top := entries[len(entries)-1]
	rec, err := c.readRecord(ctx, top.id)
	if err != nil {
		return Restored{}, err
	}
	result, err := c.restore(ctx, rec)
	if err != nil {
		return result, err
	}
	if err := c.deleteRefs(ctx, []stackEntry{top}); err != nil {
		return result, err
	}
	return result, nil
}

// List returns the checkpoints on the stack, newest first.
func (c *Checkpoints) List(ctx context.Context) ([]Checkpoint, error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	entries, err := c.stackEntries(ctx)
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	blobs, err := c.git.openBlobs(ctx)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	defer blobs.close()
	list := make([]Checkpoint, 0, len(entries))
	for _, e := range slices.Backward(entries) {
		raw, err := blobs.read(e.id)
		if err != nil {
			return nil, fmt.Errorf("checkpoint: %w", err)
		}
		rec, err := parseCommit(e.id, raw)
		if err != nil {
			return nil, fmt.Errorf("checkpoint: %s: %w", e.ref, err)
		}
		rec.cp.Skipped = c.absSkipped(rec.skipped)
		list = append(list, rec.cp)
	}
	return list, nil
}

// Clear drops every checkpoint of the stack (when its session is
// deleted, say).
func (c *Checkpoints) Clear(ctx context.Context) error {
	unlock, err := c.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	entries, err := c.stackEntries(ctx)
	if err != nil {
		return err
	}
	return c.deleteRefs(ctx, entries)
}

// stackEntries returns the stack, oldest first.
func (c *Checkpoints) stackEntries(ctx context.Context) ([]stackEntry, error) {
	out, err := c.git.run(ctx, nil, "for-each-ref", "--format=%(objectname) %(refname)", c.stackPrefix())
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	var entries []stackEntry
	for line := range strings.Lines(string(out)) {
		id, ref, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(ref, c.stackPrefix()))
		if err != nil || n <= 0 {
			continue // not one of ours
		}
		entries = append(entries, stackEntry{ref: ref, n: n, id: id})
	}
	slices.SortFunc(entries, func(x, y stackEntry) int { return x.n - y.n })
	return entries, nil
}

// deleteRefs removes the refs of entries in one transaction.
func (c *Checkpoints) deleteRefs(ctx context.Context, entries []stackEntry) error {
	if len(entries) == 0 {
		return nil
	}
	var commands strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&commands, "delete %s %s\n", e.ref, e.id)
	}
	if _, err := c.git.run(ctx, []byte(commands.String()), "update-ref", "--stdin"); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}
