package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// undoTurn reverts the turn of entry; the caller holds the lock. others
// are the stacks of the other sessions, whose turns that ran at the same
// time make the paths they changed conflicts.
func (c *Checkpoints) undoTurn(ctx context.Context, entry stackEntry, others map[string][]stackEntry) (Restored, error) {
	start, err := c.readRecord(ctx, entry.id)
	if err != nil {
		return Restored{}, err
	}
	if entry.end == "" {
		return c.unfinished(ctx, start)
	}
	end, err := c.readRecord(ctx, entry.end)
	if err != nil {
		return Restored{Checkpoint: start.cp}, err
	}
	result := Restored{Checkpoint: start.cp, Untouched: c.absSkipped(mergeSkipped(end.skipped, start.skipped))}
	diffs, err := c.diffTrees(ctx, start.tree, end.tree, skipSet(start.skipped, end.skipped))
	if err != nil || len(diffs) == 0 {
		return result, err
	}
	blobs, err := c.git.openBlobs(ctx)
	if err != nil {
		return result, fmt.Errorf("checkpoint: %w", err)
	}
	defer blobs.close()
	shared, err := c.concurrentChanges(ctx, blobs, start, end, others)
	if err != nil {
		return result, err
	}
	r := &reverter{c: c, blobs: blobs, shared: shared, result: &result}

	// The .gitignore files go first. A file the turn "created" may be one
	// that the rules it changed ignored before it: if the restored rules
	// ignore it, it stays, and if a .gitignore above it could not be
	// restored, nobody knows, so it stays too.
	ignoreFiles := slices.DeleteFunc(slices.Clone(diffs), func(d treeDiff) bool { return !isIgnoreFile(d.path) })
	diffs = slices.DeleteFunc(diffs, func(d treeDiff) bool { return isIgnoreFile(d.path) })
	if len(ignoreFiles) > 0 {
		if err := r.revert(ctx, ignoreFiles); err != nil {
			return r.done(err)
		}
		if diffs, err = r.keepIgnored(ctx, diffs, ignoreFiles); err != nil {
			return r.done(err)
		}
	}
	return r.done(r.revert(ctx, diffs))
}

// unfinished is the undo of a turn whose end was never recorded (dsh-acp
// stopped during it): nothing tells its changes from the ones made since,
// so no file is changed; every file that differs from the turn's start
// is listed as a conflict.
func (c *Checkpoints) unfinished(ctx context.Context, start record) (Restored, error) {
	result := Restored{Checkpoint: start.cp, Note: NoEndNote}
	now, err := c.stage(ctx)
	if err != nil {
		return result, err
	}
	diffs, err := c.diffTrees(ctx, start.tree, now.tree, skipSet(start.skipped, now.skipped))
	if err != nil {
		return result, err
	}
	for _, d := range diffs {
		result.Conflicts = append(result.Conflicts, Skipped{Path: c.abs(d.path), Reason: ReasonNoEnd})
	}
	return result, nil
}

// NoEndNote is Restored.Note of the undo of a turn whose end was never
// recorded.
const NoEndNote = "the end of that turn was not recorded (dsh-acp stopped during it), " +
	"so its changes cannot be told from later ones: no file was changed, and the files that differ from before it are listed"

// concurrentChanges returns the paths (relative to the root) that turns
// of other stacks may have changed while the turn from start to end ran:
// those that were running when it started (start.running) and those that
// started while it ran. Each counts with what it changed up to its own
// end or the turn's, whichever came first.
func (c *Checkpoints) concurrentChanges(ctx context.Context, blobs *blobReader, start, end record, others map[string][]stackEntry) (map[string]bool, error) {
	shared := map[string]bool{}
	for stack, entries := range others {
		for _, e := range entries {
			theirs, err := c.readRecordFrom(blobs, e.id)
			if err != nil {
				continue // not a checkpoint we can read: nothing to learn from it
			}
			startedDuring := !theirs.at.Before(start.at) && !theirs.at.After(end.at)
			// A turn running at the start began before it; a later turn
			// with the same name (the earlier one undone) is another.
			wasRunning := slices.Contains(start.running, turnName(stack, e.n)) && !theirs.at.After(start.at)
			if !startedDuring && !wasRunning {
				continue
			}
			bound, boundSkipped := end.tree, end.skipped
			if e.end != "" {
				if theirEnd, err := c.readRecordFrom(blobs, e.end); err == nil && theirEnd.at.Before(end.at) {
					bound, boundSkipped = theirEnd.tree, theirEnd.skipped
				}
			}
			diffs, err := c.diffTrees(ctx, theirs.tree, bound, skipSet(theirs.skipped, boundSkipped))
			if err != nil {
				return nil, err
			}
			for _, d := range diffs {
				shared[d.path] = true
			}
		}
	}
	return shared, nil
}

// readRecordFrom reads the checkpoint id through blobs.
func (c *Checkpoints) readRecordFrom(blobs *blobReader, id string) (record, error) {
	raw, err := blobs.read(id)
	if err != nil {
		return record{}, err
	}
	return parseCommit(id, raw)
}

// reverter reverts the paths of one turn, recording what it did.
type reverter struct {
	c      *Checkpoints
	blobs  *blobReader
	shared map[string]bool // paths another session's turn changed at the same time
	result *Restored
	// unrestoredIgnores are the directories (relative, "" for the root)
	// whose .gitignore the turn changed and the undo could not restore.
	unrestoredIgnores []string
}

// done sorts the result and returns it with err.
func (r *reverter) done(err error) (Restored, error) {
	sortChanges(r.result.Changes)
	for _, list := range [][]Skipped{r.result.Conflicts, r.result.Untouched} {
		slices.SortFunc(list, func(x, y Skipped) int { return strings.Compare(x.Path, y.Path) })
	}
	return *r.result, err
}

// revert reverts each path of diffs ("a" is the turn's start, "b" its
// end) that is still what the turn left. Removals go first, deepest
// first, so that what the turn put where a directory or file was is gone
// before that comes back.
func (r *reverter) revert(ctx context.Context, diffs []treeDiff) error {
	diffs = slices.Clone(diffs)
	slices.SortStableFunc(diffs, removalsFirst)
	var errs []error
	for _, d := range diffs {
		if err := ctx.Err(); err != nil {
			return errors.Join(append(errs, fmt.Errorf("checkpoint: undo: %w", err))...)
		}
		if err := r.revertOne(d); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// removalsFirst orders diffs as apply and revert need them: the paths to
// remove before the others, deepest first.
func removalsFirst(x, y treeDiff) int {
	xr, yr := x.aMode == modeAbsent, y.aMode == modeAbsent
	switch {
	case xr && !yr:
		return -1
	case yr && !xr:
		return 1
	case xr:
		return strings.Compare(y.path, x.path) // reversed: a path before its directories
	default:
		return strings.Compare(x.path, y.path)
	}
}

// revertOne reverts one path, or says why not.
func (r *reverter) revertOne(d treeDiff) error {
	c := r.c
	abs := c.abs(d.path)
	conflict := func(reason Reason) error {
		r.result.Conflicts = append(r.result.Conflicts, Skipped{Path: abs, Reason: reason})
		if isIgnoreFile(d.path) {
			r.unrestoredIgnores = append(r.unrestoredIgnores, ignoreDir(d.path))
		}
		return nil
	}
	if r.shared[d.path] {
		return conflict(ReasonOtherSession)
	}
	if reason := c.checkParents(filepath.Dir(abs)); reason != "" {
		return conflict(reason)
	}
	before, err := readSide(r.blobs, d.aMode, d.aHash)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	after, err := readSide(r.blobs, d.bMode, d.bHash)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	now, err := lookAt(abs)
	if err != nil {
		return err
	}
	switch {
	case now.is(after, d.bMode):
	case now.is(before, d.aMode):
		return nil // already as it was before the turn
	case now.exists && now.info.IsDir():
		return conflict(ReasonInTheWay)
	case !after.exists:
		return conflict(ReasonRecreated)
	case !now.exists:
		return conflict(ReasonRemovedSince)
	default:
		return conflict(ReasonChangedSince)
	}
	var reason Reason
	if before.exists {
		reason, err = c.putFile(abs, before, d.aMode == modeExec)
	} else {
		reason, err = c.removeFile(abs)
	}
	switch {
	case err != nil:
		return err
	case reason != "":
		return conflict(reason)
	}
	r.result.Changes = append(r.result.Changes, newChange(abs, after, before))
	return nil
}

// keepIgnored returns diffs without the files the turn created that may
// have existed, ignored, before it: those the restored ignore rules
// ignore (they stay, as ignored files do), and those below a .gitignore
// the turn changed that could not be restored (they stay and are
// conflicts). changedIgnores are the .gitignore files the turn changed.
func (r *reverter) keepIgnored(ctx context.Context, diffs, changedIgnores []treeDiff) ([]treeDiff, error) {
	var created []string
	for _, d := range diffs {
		if d.aMode == modeAbsent && r.reachedBy(d.path, changedIgnores) {
			created = append(created, d.path)
		}
	}
	if len(created) == 0 {
		return diffs, nil
	}
	ignored, err := r.c.ignored(ctx, created)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(diffs, func(d treeDiff) bool {
		switch {
		case d.aMode != modeAbsent:
			return false
		case ignored[d.path]:
			return true
		case r.belowUnrestored(d.path):
			r.result.Conflicts = append(r.result.Conflicts, Skipped{Path: r.c.abs(d.path), Reason: ReasonIgnoreRulesChanged})
			return true
		}
		return false
	}), nil
}

// ignored returns those of paths (relative to the root) that the ignore
// rules in the work tree now ignore, whether recorded or not.
func (c *Checkpoints) ignored(ctx context.Context, paths []string) (map[string]bool, error) {
	// check-ignore refuses literal pathspecs; "./" keeps a path that
	// looks like pathspec magic (":(glob)x") a path.
	input := make([]string, len(paths))
	for i, p := range paths {
		input[i] = "./" + p
	}
	cmd := c.git.command(ctx, joinNUL(input), "check-ignore", "-z", "--stdin", "--no-index")
	cmd.Env = append(slices.Clone(cmd.Env), "GIT_LITERAL_PATHSPECS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && !exitedWith(err, 1) { // 1: none is ignored
		return nil, fmt.Errorf("checkpoint: %w", newGitError(ctx, cmd.Args[1:], stderr.Bytes(), err))
	}
	ignored := map[string]bool{}
	for _, p := range splitNUL(stdout.Bytes()) {
		ignored[strings.TrimPrefix(p, "./")] = true
	}
	return ignored, nil
}

// reachedBy reports whether one of the ignore files lies in the
// directory of rel or above it.
func (r *reverter) reachedBy(rel string, ignoreFiles []treeDiff) bool {
	return slices.ContainsFunc(ignoreFiles, func(d treeDiff) bool { return inDir(rel, ignoreDir(d.path)) })
}

// belowUnrestored reports whether rel lies below a directory whose
// changed .gitignore the undo could not restore.
func (r *reverter) belowUnrestored(rel string) bool {
	return slices.ContainsFunc(r.unrestoredIgnores, func(dir string) bool { return inDir(rel, dir) })
}

// ignoreDir is the directory of the .gitignore at rel, "" for the root.
func ignoreDir(rel string) string {
	dir := path.Dir(rel)
	if dir == "." {
		return ""
	}
	return dir
}

// inDir reports whether the slash-separated rel lies below dir ("" is the
// root).
func inDir(rel, dir string) bool { return dir == "" || strings.HasPrefix(rel, dir+"/") }

// onDisk is what a path holds now, for comparing with a checkpoint's side.
type onDisk struct {
	path   string
	exists bool
	info   fs.FileInfo
	target string // a symbolic link's
}

// lookAt returns what path holds now, without following a link there.
func lookAt(path string) (onDisk, error) {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return onDisk{path: path}, nil
	case err != nil:
		return onDisk{}, fmt.Errorf("checkpoint: undo %s: %w", path, err)
	}
	d := onDisk{path: path, exists: true, info: info}
	if info.Mode()&fs.ModeSymlink != 0 {
		if d.target, err = os.Readlink(path); err != nil {
			return onDisk{}, fmt.Errorf("checkpoint: undo %s: %w", path, err)
		}
	}
	return d, nil
}

// is reports whether the path holds exactly s, recorded with git's mode:
// the same kind (absent, file, link), the same executable bit, the same
// bytes. A file that cannot be read is not the same.
func (d onDisk) is(s side, mode string) bool {
	switch {
	case !s.exists || !d.exists:
		return s.exists == d.exists
	case s.link:
		return d.info.Mode()&fs.ModeSymlink != 0 && d.target == string(s.data)
	case !d.info.Mode().IsRegular():
		return false
	case (d.info.Mode().Perm()&0o100 != 0) != (mode == modeExec), d.info.Size() != int64(len(s.data)):
		return false
	}
	data, err := os.ReadFile(d.path)
	return err == nil && string(data) == string(s.data)
}
