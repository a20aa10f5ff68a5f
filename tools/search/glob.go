package search

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// globArgs are the model's arguments to glob.
type globArgs struct {
	Pattern string `json:"pattern" jsonschema:"the glob to match file paths against, e.g. **/*.go or src/**/*.{ts,tsx}; * stays within one directory, ** crosses directories"`
	Path    string `json:"path,omitempty" jsonschema:"the directory to search, absolute or relative to the working directory; default the working directory"`
}

// globTimeout is glob's time budget.
const globTimeout = time.Minute

const globDescription = `Find files whose paths match a glob pattern, newest first (by modification time).
The pattern is matched against the path below path (default the working directory): "*.go" matches only there, "**/*.go" at any depth; {a,b} alternatives, ? and [...] classes work.
Files ignored by .gitignore and the .git directory are skipped. At most 100 paths are shown; narrow the pattern or path when the result says it was truncated.
Paths in the result can be passed to read.`

// defineGlob builds the glob tool.
func defineGlob(ws *workspace.Workspace, opts Options) (*registry.Tool, error) {
	g := &globber{ws: ws, opts: opts}
	return registry.Define(registry.Spec[globArgs, globResult]{
		Name:             GlobName,
		Description:      globDescription,
		Handler:          g.handle,
		Render:           renderGlob,
		PresentationMeta: globMeta,
		Timeout:          globTimeout,
		Effect:           registry.EffectRead,
		Paths:            g.paths,
		ConcurrencySafe:  func(globArgs) bool { return true },
		PresentCall:      presentGlobCall,
		PresentResult:    presentGlobResult,
	})
}

// globber runs glob calls for one workspace.
type globber struct {
	ws   *workspace.Workspace
	opts Options
}

// paths lists what a call touches: its path (a directory it checks) and
// the directory it walks, which the pattern's fixed leading directories
// can move anywhere ("../outdir/*", "/etc/host*"). A path or pattern no
// file can have (a NUL byte) is listed as written, so a policy refuses it
// as the tool would.
func (g *globber) paths(a globArgs) []string {
	base, _ := doublestar.SplitPattern(filepath.ToSlash(a.Pattern))
	for _, p := range []string{a.Path, base} {
		if workspace.ValidatePath(p) != nil {
			return []string{p}
		}
	}
	if !doublestar.ValidatePattern(filepath.ToSlash(a.Pattern)) {
		return optionalPath(a.Path)
	}
	return append(optionalPath(a.Path), walkRoot(g.ws.Resolve(dotIfEmpty(a.Path)), base))
}

// walkRoot is the directory a glob below dir walks for a pattern whose
// fixed leading directories are base: base below dir, or base itself when
// absolute; clean and absolute either way.
func walkRoot(dir, base string) string {
	if filepath.IsAbs(base) {
		return filepath.Clean(base)
	}
	return filepath.Join(dir, filepath.FromSlash(base))
}

// dotIfEmpty is path, or "." (the working directory) when it is empty.
func dotIfEmpty(path string) string {
	if path == "" {
		return "."
	}
	return path
}

// globHit is one matching file and its modification time.
type globHit struct {
	path  string
	mtime time.Time
}

// handle is glob's body.
func (g *globber) handle(ctx context.Context, _ *registry.Call, args globArgs) (globResult, error) {
	pattern := filepath.ToSlash(args.Pattern)
	if err := workspace.ValidatePath(pattern); err != nil {
		return globResult{}, registry.ArgsError([]string{"pattern: " + err.Error()})
	}
	if pattern == "" || !doublestar.ValidatePattern(pattern) {
		return globResult{}, registry.NewError(CodeInvalidPattern, fmt.Sprintf(
			"invalid glob %q: use * within a directory, ** across directories, {a,b} alternatives and [...] classes, e.g. \"**/*.go\"", args.Pattern))
	}
	dir, info, err := statTarget(g.ws, args.Path)
	if err != nil {
		return globResult{}, err
	}
	if !info.IsDir() {
		return globResult{}, registry.NewError(CodeNotDirectory, fmt.Sprintf(
			"path %s is a file, not a directory: pass the directory to search (e.g. %q) and put the file name in pattern",
			args.Path, filepath.Dir(args.Path)))
	}
	// Walk only below the pattern's fixed leading directories: the
	// directory Paths told the policy about.
	base, rest := doublestar.SplitPattern(pattern)
	hits, err := g.find(ctx, walkRoot(dir, base), rest)
	if ctx.Err() != nil {
		return globResult{}, abortedError(ctx)
	}
	if err != nil {
		return globResult{}, err
	}
	slices.SortFunc(hits, func(a, b globHit) int {
		if c := b.mtime.Compare(a.mtime); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	r := globResult{Total: len(hits), Paths: []string{}}
	for _, h := range hits[:min(len(hits), g.opts.MaxPaths)] {
		r.Paths = append(r.Paths, g.ws.Display(h.path))
	}
	r.Truncated = len(r.Paths) < r.Total
	return r, nil
}

// find walks root and returns the files whose paths below it match
// pattern (slash-separated, no fixed leading directories).
func (g *globber) find(ctx context.Context, root, pattern string) ([]globHit, error) {
	info, err := os.Stat(root)
	if err != nil || !info.IsDir() {
		return nil, nil
	}
	var mu sync.Mutex
	var hits []globHit
	err = walk(ctx, root, walkOptions{hidden: true, symlinks: true, workers: g.opts.Workers, onVisit: g.opts.onVisit}, func() visitFunc {
		return func(path string, entry fs.DirEntry) {
			if !doublestar.MatchUnvalidated(pattern, relTo(root, path)) {
				return
			}
			info, err := entry.Info()
			if err != nil {
				return
			}
			mu.Lock()
			hits = append(hits, globHit{path: path, mtime: info.ModTime()})
			mu.Unlock()
		}
	})
	return hits, err
}
