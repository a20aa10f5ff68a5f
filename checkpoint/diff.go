package checkpoint

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Git's modes for the entries of a tree.
const (
	modeAbsent  = "000000"
	modeLink    = "120000"
	modeGitlink = "160000"
	modeExec    = "100755"
)

// treeDiff is one path that differs between two trees, as `git diff-tree
// --raw` reports it: "a" is the first tree's side, "b" the second's.
type treeDiff struct {
	path         string // relative to the root, slash-separated
	aMode, bMode string
	aHash, bHash string
}

// diffTrees returns the paths that differ between the trees a and b,
// leaving out the paths in skip and any submodule entry.
func (c *Checkpoints) diffTrees(ctx context.Context, a, b string, skip map[string]bool) ([]treeDiff, error) {
	if a == b {
		return nil, nil
	}
	out, err := c.git.run(ctx, nil, "diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", a, b)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	fields := splitNUL(out)
	var diffs []treeDiff
	for i := 0; i+1 < len(fields); i += 2 {
		// ":<a mode> <b mode> <a hash> <b hash> <status>", then the path.
		parts := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(parts) != 5 {
			return nil, fmt.Errorf("checkpoint: git diff-tree: unexpected line %q", fields[i])
		}
		d := treeDiff{path: fields[i+1], aMode: parts[0], bMode: parts[1], aHash: parts[2], bHash: parts[3]}
		if skip[d.path] || d.aMode == modeGitlink || d.bMode == modeGitlink {
			continue
		}
		diffs = append(diffs, d)
	}
	return diffs, nil
}

// skipSet is the set of paths in any of the lists.
func skipSet(lists ...[]Skipped) map[string]bool {
	set := map[string]bool{}
	for _, list := range lists {
		for _, s := range list {
			set[s.Path] = true
		}
	}
	return set
}

// readSide reads one side of a tree entry.
func readSide(blobs *blobReader, mode, hash string) (side, error) {
	if mode == modeAbsent {
		return side{}, nil
	}
	data, err := blobs.read(hash)
	if err != nil {
		return side{}, err
	}
	return side{exists: true, data: data, link: mode == modeLink}, nil
}

// changesBetween returns the Changes from tree a (Before) to tree b
// (After), sorted by path.
func (c *Checkpoints) changesBetween(ctx context.Context, a, b string, skip map[string]bool) ([]Change, error) {
	diffs, err := c.diffTrees(ctx, a, b, skip)
	if err != nil || len(diffs) == 0 {
		return nil, err
	}
	blobs, err := c.git.openBlobs(ctx)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	defer blobs.close()
	changes := make([]Change, 0, len(diffs))
	for _, d := range diffs {
		before, err := readSide(blobs, d.aMode, d.aHash)
		if err != nil {
			return nil, fmt.Errorf("checkpoint: %w", err)
		}
		after, err := readSide(blobs, d.bMode, d.bHash)
		if err != nil {
			return nil, fmt.Errorf("checkpoint: %w", err)
		}
		changes = append(changes, newChange(c.abs(d.path), before, after))
	}
	sortChanges(changes)
	return changes, nil
}

// sortChanges sorts changes by path.
func sortChanges(changes []Change) {
	slices.SortFunc(changes, func(x, y Change) int { return strings.Compare(x.Path, y.Path) })
}

// isIgnoreFile reports whether the slash-separated path names a
// .gitignore.
func isIgnoreFile(rel string) bool { return path.Base(rel) == ".gitignore" }
