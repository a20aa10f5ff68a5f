package checkpoint

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// stackEntry is one turn on the stack: the checkpoint taken at its start
// (refs/dsh/stacks/<stack>/<n>) and, once it ended, the one taken at its
// end (refs/dsh/stacks/<stack>/<n>-end).
type stackEntry struct {
	ref string // the start's ref
	n   int    // its place: larger is newer
	id  string // the start's checkpoint
	end string // the end's checkpoint, "" while the turn runs (or when it never ended)
}

// endSuffix ends the name of the ref of a turn's end checkpoint.
const endSuffix = "-end"

// endRef is the ref of the entry's end checkpoint.
func (e stackEntry) endRef() string { return e.ref + endSuffix }

// stacksPrefix is where the refs of every stack live.
const stacksPrefix = "refs/dsh/stacks/"

// stackPrefix is where the refs of this value's stack live.
func (c *Checkpoints) stackPrefix() string { return stacksPrefix + c.opts.Stack + "/" }

// Push takes a checkpoint of the workspace as it is now (see Snapshot)
// and puts it on top of the stack as the start of a turn, dropping the
// oldest turns beyond Options.Keep. Call it before each turn that may
// change files, and Finish when the turn ends.
func (c *Checkpoints) Push(ctx context.Context, label string) (Checkpoint, error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	defer unlock()
	stacks, err := c.stacks(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	rec, err := c.snapshot(ctx, label, c.runningTurns(stacks))
	if err != nil {
		return Checkpoint{}, err
	}
	entries := stacks[c.opts.Stack]
	n := 1
	if len(entries) > 0 {
		n = entries[len(entries)-1].n + 1
	}
	// A stale end at this place (an older dsh-acp dropped the turn it
	// belonged to) must not pass for the end of the new turn.
	entry := stackEntry{ref: c.stackPrefix() + strconv.Itoa(n)}
	commands := fmt.Sprintf("update %s %s\ndelete %s\n", entry.ref, rec.cp.ID, entry.endRef())
	if _, err := c.git.run(ctx, []byte(commands), "update-ref", "--stdin"); err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint: %w", err)
	}
	c.holdTurn()
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

// Finish takes a checkpoint of the workspace as the turn on top of the
// stack left it: its end, which Undo compares the workspace with. Call it
// when the turn ends, however it ends (a cancelled turn too). A turn
// that already has its end keeps it: Finish then returns that one and
// takes nothing. An empty stack fails with ErrNothingToUndo.
func (c *Checkpoints) Finish(ctx context.Context) (Checkpoint, error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	defer unlock()
	entries, err := c.stackEntries(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	if len(entries) == 0 {
		return Checkpoint{}, fmt.Errorf("checkpoint: no turn to finish: %w", ErrNothingToUndo)
	}
	top := entries[len(entries)-1]
	if top.end != "" {
		rec, err := c.readRecord(ctx, top.end)
		return rec.cp, err
	}
	start, err := c.readRecord(ctx, top.id)
	if err != nil {
		return Checkpoint{}, err
	}
	rec, err := c.snapshot(ctx, "end of "+start.cp.Label, nil)
	if err != nil {
		return Checkpoint{}, err
	}
	if _, err := c.git.run(ctx, nil, "update-ref", top.endRef(), rec.cp.ID); err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint: %w", err)
	}
	c.releaseTurn()
	return rec.cp, nil
}

// Undo reverts the turn on top of the stack and drops it, so that the
// next Undo goes one turn further back. It reverts only the files the
// turn changed (those that differ between its start and its end), and
// each only while it is still what the turn left; a file changed since
// is left as it is and listed in Restored.Conflicts (see the package
// documentation for the rules). An empty stack fails with
// ErrNothingToUndo. When reverting fails, the turn stays on the stack
// and what was done so far is returned with the error.
func (c *Checkpoints) Undo(ctx context.Context) (Restored, error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return Restored{}, err
	}
	defer unlock()
	stacks, err := c.stacks(ctx)
	if err != nil {
		return Restored{}, err
	}
	entries := stacks[c.opts.Stack]
	if len(entries) == 0 {
		return Restored{}, fmt.Errorf("checkpoint: %w", ErrNothingToUndo)
	}
	top := entries[len(entries)-1]
	c.releaseTurn() // no turn runs while one is undone
	delete(stacks, c.opts.Stack)
	result, err := c.undoTurn(ctx, top, stacks)
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
	stacks, err := c.stacks(ctx)
	return stacks[c.opts.Stack], err
}

// stacks returns every stack of the repository (every session's), each
// oldest first, by name.
func (c *Checkpoints) stacks(ctx context.Context) (map[string][]stackEntry, error) {
	out, err := c.git.run(ctx, nil, "for-each-ref", "--format=%(objectname) %(refname)", stacksPrefix)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	type key struct {
		stack string
		n     int
	}
	found := map[key]*stackEntry{}
	for line := range strings.Lines(string(out)) {
		id, ref, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		stack, name, ok := strings.Cut(strings.TrimPrefix(ref, stacksPrefix), "/")
		if !ok {
			continue
		}
		name, isEnd := strings.CutSuffix(name, endSuffix)
		n, err := strconv.Atoi(name)
		if err != nil || n <= 0 || strconv.Itoa(n) != name {
			continue // not one of ours
		}
		k := key{stack, n}
		e := found[k]
		if e == nil {
			e = &stackEntry{ref: stacksPrefix + stack + "/" + name, n: n}
			found[k] = e
		}
		if isEnd {
			e.end = id
		} else {
			e.id = id
		}
	}
	stacks := map[string][]stackEntry{}
	for k, e := range found {
		if e.id == "" {
			continue // an end whose start is gone (an older dsh-acp dropped it)
		}
		stacks[k.stack] = append(stacks[k.stack], *e)
	}
	for _, entries := range stacks {
		slices.SortFunc(entries, func(x, y stackEntry) int { return x.n - y.n })
	}
	return stacks, nil
}

// deleteRefs removes the refs of entries in one transaction.
func (c *Checkpoints) deleteRefs(ctx context.Context, entries []stackEntry) error {
	if len(entries) == 0 {
		return nil
	}
	var commands strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&commands, "delete %s %s\n", e.ref, e.id)
		if e.end != "" {
			fmt.Fprintf(&commands, "delete %s %s\n", e.endRef(), e.end)
		}
	}
	if _, err := c.git.run(ctx, []byte(commands.String()), "update-ref", "--stdin"); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}
