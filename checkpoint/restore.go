package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Restore puts the workspace back as it was at checkpoint id: every file
// that differs is rewritten (atomically; a file that exists keeps its
// permissions, with the executable bit as recorded), removed when it did
// not exist then (with the directories that leaves empty), or recreated
// when it has been removed since. Files the checkpoint or the workspace
// leaves out (ignored, over the size limit, nested repositories) are left
// as they are, and so is a file whose place is taken by a directory that
// is not empty or is reached through a symbolic link: those are listed in
// Untouched. The checkpoint stays. An unknown id fails with
// ErrUnknownCheckpoint; an error midway returns what was restored so far.
func (c *Checkpoints) Restore(ctx context.Context, id string) (Restored, error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return Restored{}, err
	}
	defer unlock()
	rec, err := c.readRecord(ctx, id)
	if err != nil {
		return Restored{}, err
	}
	return c.restore(ctx, rec)
}

// restore is Restore for a record; the caller holds the lock.
func (c *Checkpoints) restore(ctx context.Context, rec record) (Restored, error) {
	result := Restored{Checkpoint: rec.cp}
	now, err := c.stage(ctx)
	if err != nil {
		return result, err
	}
	diffs, err := c.diffTrees(ctx, rec.tree, now.tree, skipSet(rec.skipped, now.skipped))
	if err != nil {
		return result, err
	}
	blobs, err := c.git.openBlobs(ctx)
	if err != nil {
		return result, fmt.Errorf("checkpoint: %w", err)
	}
	defer blobs.close()

	// The .gitignore files go first; then the workspace is read again
	// under the rules they restored, so that a file they ignored at the
	// checkpoint is not taken for one created since.
	ignoreFiles := slices.DeleteFunc(slices.Clone(diffs), func(d treeDiff) bool { return !isIgnoreFile(d.path) })
	if len(ignoreFiles) > 0 {
		if err := c.apply(ctx, blobs, ignoreFiles, &result); err != nil {
			return result, err
		}
		if now, err = c.stage(ctx); err != nil {
			return result, err
		}
		if diffs, err = c.diffTrees(ctx, rec.tree, now.tree, skipSet(rec.skipped, now.skipped)); err != nil {
			return result, err
		}
		diffs = slices.DeleteFunc(diffs, func(d treeDiff) bool { return isIgnoreFile(d.path) })
	}
	err = c.apply(ctx, blobs, diffs, &result)
	sortChanges(result.Changes)
	result.Untouched = append(result.Untouched, c.absSkipped(mergeSkipped(now.skipped, rec.skipped))...)
	slices.SortFunc(result.Untouched, func(x, y Skipped) int { return strings.Compare(x.Path, y.Path) })
	return result, err
}

// apply makes each path of diffs what it is in the checkpoint (the "a"
// side; "b" is the workspace now), recording what it did in result.
// Removals go first, deepest first, so that what the turn put where a
// directory or file was is gone before that comes back.
func (c *Checkpoints) apply(ctx context.Context, blobs *blobReader, diffs []treeDiff, result *Restored) error {
	diffs = slices.Clone(diffs)
	slices.SortStableFunc(diffs, removalsFirst)
	var errs []error
	for _, d := range diffs {
		if err := ctx.Err(); err != nil {
			return errors.Join(append(errs, fmt.Errorf("checkpoint: restore: %w", err))...)
		}
		current, err := readSide(blobs, d.bMode, d.bHash)
		if err != nil {
			return errors.Join(append(errs, fmt.Errorf("checkpoint: %w", err))...)
		}
		wanted, err := readSide(blobs, d.aMode, d.aHash)
		if err != nil {
			return errors.Join(append(errs, fmt.Errorf("checkpoint: %w", err))...)
		}
		path := c.abs(d.path)
		var reason Reason
		if wanted.exists {
			reason, err = c.putFile(path, wanted, d.aMode == modeExec)
		} else {
			reason, err = c.removeFile(path)
		}
		switch {
		case err != nil:
			errs = append(errs, err)
		case reason != "":
			result.Untouched = append(result.Untouched, Skipped{Path: path, Reason: reason})
		default:
			result.Changes = append(result.Changes, newChange(path, current, wanted))
		}
	}
	return errors.Join(errs...)
}

// mergeSkipped returns the skipped files of both lists, each path once
// (the first list's entry wins).
func mergeSkipped(first, second []Skipped) []Skipped {
	seen := map[string]bool{}
	var out []Skipped
	for _, s := range slices.Concat(first, second) {
		if !seen[s.Path] {
			seen[s.Path] = true
			out = append(out, s)
		}
	}
	return out
}
