package checkpoint

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// bulkAdds is how many files one staging must add before their objects
// go straight into a pack file instead of one loose file each: a first
// checkpoint of a large workspace then writes one file instead of tens of
// thousands, and needs no repacking later.
const bulkAdds = 256

// staged is the work tree as the shadow index now records it.
type staged struct {
	tree    string    // the tree object of the index
	skipped []Skipped // files left out, paths relative to the root
}

// stage brings the shadow index up to date with the work tree and writes
// its tree: new and changed files are added (their objects written),
// deleted ones removed, and the files a checkpoint leaves out (ignored,
// over the size limit, nested repositories, special files) removed or
// never added. Only the files git's stat data says changed are read.
func (c *Checkpoints) stage(ctx context.Context) (staged, error) {
	if err := c.syncInfoFiles(); err != nil {
		return staged{}, err
	}
	// Files whose stat data changed but content did not (touched, or
	// rewritten with the same bytes) get their stat data refreshed, so
	// that the listing below need not read them again and again.
	if err := c.refreshIndex(ctx); err != nil {
		return staged{}, err
	}
	listed, err := c.git.run(ctx, nil, "ls-files", "-z", "-t", "--modified", "--deleted", "--others", "--exclude-standard")
	if err != nil {
		return staged{}, fmt.Errorf("checkpoint: %w", err)
	}
	ignored, err := c.git.run(ctx, nil, "ls-files", "-z", "--cached", "--ignored", "--exclude-standard")
	if err != nil {
		return staged{}, fmt.Errorf("checkpoint: %w", err)
	}
	plan := c.planStaging(splitNUL(listed), splitNUL(ignored))
	if files := c.indexEntries() + plan.newFiles; files > c.opts.MaxFiles {
		return staged{}, &TooManyFilesError{Root: c.root, Files: files, Limit: c.opts.MaxFiles}
	}
	if len(plan.removes) > 0 {
		if _, err := c.git.run(ctx, joinNUL(plan.removes), "update-index", "-z", "--force-remove", "--stdin"); err != nil {
			return staged{}, fmt.Errorf("checkpoint: %w", err)
		}
	}
	if len(plan.adds) > 0 {
		args := []string{"update-index", "-z", "--add", "--remove", "--replace", "--stdin"}
		if len(plan.adds) >= bulkAdds {
			// Files larger than core.bigFileThreshold are streamed into
			// one pack per command: with 1, that is every file but the
			// empty and one-byte ones.
			args = append([]string{"-c", "core.bigFileThreshold=1"}, args...)
		}
		if _, err := c.git.run(ctx, joinNUL(plan.adds), args...); err != nil {
			return staged{}, fmt.Errorf("checkpoint: %w", err)
		}
	}
	tree, err := c.git.run(ctx, nil, "write-tree")
	if err != nil {
		return staged{}, fmt.Errorf("checkpoint: %w", err)
	}
	return staged{tree: strings.TrimSpace(string(tree)), skipped: plan.skipped}, nil
}

// refreshIndex refreshes the stat data of the shadow index. An index git
// cannot read (cut short by a full disk, say) is removed and the refresh
// tried once more: the index only saves reading files again, and every
// git command refuses a broken one, which would stop every checkpoint of
// the root for good.
func (c *Checkpoints) refreshIndex(ctx context.Context) error {
	refresh := func() error {
		if _, err := c.git.run(ctx, nil, "update-index", "-q", "--refresh"); err != nil && !exitedWith(err, 1) {
			return fmt.Errorf("checkpoint: %w", err)
		}
		return nil
	}
	err := refresh()
	if err == nil || ctx.Err() != nil || !exitedWith(err, 128) {
		return err
	}
	index := filepath.Join(c.gitDir, "index")
	if _, statErr := os.Stat(index); statErr != nil {
		return err
	}
	c.opts.Logger.Warn("checkpoint: the shadow index cannot be read; building it again", "root", c.root, "err", err)
	if rmErr := os.Remove(index); rmErr != nil {
		return errors.Join(err, rmErr)
	}
	return refresh()
}

// stagingPlan is what the index must be told.
type stagingPlan struct {
	adds, removes []string  // paths relative to the root
	skipped       []Skipped // files left out
	newFiles      int       // adds the index does not have yet
}

// planStaging sorts the entries of `git ls-files -t` (a tag, a space, a
// path) into paths to add, paths to remove and paths to leave out,
// looking at each file as it is now. ignored are recorded files that the
// ignore rules now match: they leave the index whatever happened to them.
func (c *Checkpoints) planStaging(entries, ignored []string) stagingPlan {
	plan := stagingPlan{removes: ignored}
	seen := make(map[string]bool, len(entries)+len(ignored))
	for _, path := range ignored {
		seen[path] = true
	}
	for _, entry := range entries {
		if len(entry) < 3 {
			continue
		}
		tracked, path := entry[0] != '?', entry[2:]
		if seen[path] {
			continue // ignored, or deleted and so listed as modified too
		}
		seen[path] = true
		if !tracked && strings.HasSuffix(path, "/") {
			plan.skipped = append(plan.skipped, Skipped{Path: strings.TrimSuffix(path, "/"), Reason: ReasonNestedRepository})
			continue
		}
		info, err := os.Lstat(c.abs(path))
		switch {
		case err != nil:
			// Gone: it leaves the index (an untracked file that
			// vanished since it was listed is simply not added).
		case info.Mode().IsRegular() && info.Size() > c.opts.MaxFileSize:
			plan.skipped = append(plan.skipped, Skipped{Path: path, Reason: ReasonTooLarge, Size: info.Size()})
		case info.Mode().IsRegular() && !readable(c.abs(path)):
			plan.skipped = append(plan.skipped, Skipped{Path: path, Reason: ReasonUnreadable})
		case info.Mode().IsRegular() || info.Mode()&fs.ModeSymlink != 0:
			plan.adds = append(plan.adds, path)
			if !tracked {
				plan.newFiles++
			}
			continue
		}
		if tracked {
			plan.removes = append(plan.removes, path)
		}
	}
	return plan
}

// readable reports whether the file at path can be opened for reading:
// git would fail the whole checkpoint on one it cannot read.
func readable(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// indexEntries returns how many files the shadow index holds, from its
// header (0 when there is no index yet).
func (c *Checkpoints) indexEntries() int {
	f, err := os.Open(filepath.Join(c.gitDir, "index"))
	if err != nil {
		return 0
	}
	defer f.Close()
	var header [12]byte // "DIRC", the version, the number of entries
	if _, err := f.ReadAt(header[:], 0); err != nil || string(header[:4]) != "DIRC" {
		return 0
	}
	return int(binary.BigEndian.Uint32(header[8:]))
}

// exitedWith reports whether err is a git command that exited with code.
func exitedWith(err error, code int) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == code
}
