package search

import (
	"context"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/dsh-acp/dsh-acp/tools/search/internal/ignore"
)

// batchSize is the most files one walk job visits; a larger directory is
// split so every worker gets a share of it.
const batchSize = 128

// walkOptions say which entries a walk yields to its visitors.
type walkOptions struct {
	// hidden yields entries whose names start with '.' (".git" never).
	hidden bool
	// symlinks yields symbolic links as files; they are never followed.
	symlinks bool
	// include is grep's file filter with ripgrep's --glob semantics: a
	// match admits a file even when ignored or hidden, a file that does
	// not match is skipped, and a '!' filter excludes what it matches.
	include *ignore.Pattern
	// workers is the number of goroutines; at least one.
	workers int
	// onVisit, when set, is called before each visit (Options.onVisit).
	onVisit func(path string)
}

// visitFunc receives one file the walk yields. Each worker has its own, so
// it may keep per-worker state without locking.
type visitFunc func(path string, entry fs.DirEntry)

// walkJob is a directory to read or a batch of files to visit.
type walkJob struct {
	dir    string
	parent *level // the chain above dir; nil for the walk root
	root   bool
	files  []fileEntry
}

// fileEntry is one file a job visits.
type fileEntry struct {
	path  string
	entry fs.DirEntry
}

// walk yields every file below root that .gitignore rules, hiddenness and
// the include filter admit, from opts.workers goroutines, each with the
// visitor newVisitor made for it. It skips what it cannot read, never
// follows symbolic links, and returns ctx.Err() when ctx ends first.
func walk(ctx context.Context, root string, opts walkOptions, newVisitor func() visitFunc) error {
	w := &walker{root: root, opts: opts}
	w.cond.L = &w.mu
	w.push(walkJob{dir: root, root: true})
	stop := context.AfterFunc(ctx, w.stop)
	defer stop()
	var wg sync.WaitGroup
	for range max(opts.workers, 1) {
		visit := newVisitor()
		wg.Go(func() { w.work(ctx, visit) })
	}
	wg.Wait()
	return ctx.Err()
}

// walker is the shared state of one walk: a stack of jobs and the count of
// jobs queued or running, which reaching zero ends the walk.
type walker struct {
	root string
	opts walkOptions

	mu      sync.Mutex
	cond    sync.Cond
	jobs    []walkJob
	pending int
	done    bool
}

// push queues a job.
func (w *walker) push(j walkJob) {
	w.mu.Lock()
	w.jobs = append(w.jobs, j)
	w.pending++
	w.mu.Unlock()
	w.cond.Signal()
}

// stop ends the walk early: workers finish their current job and return.
func (w *walker) stop() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
	w.cond.Broadcast()
}

// next waits for a job; false means the walk is over.
func (w *walker) next() (walkJob, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.jobs) == 0 && !w.done {
		w.cond.Wait()
	}
	if w.done {
		return walkJob{}, false
	}
	j := w.jobs[len(w.jobs)-1]
	w.jobs = w.jobs[:len(w.jobs)-1]
	return j, true
}

// finished marks a job done, ending the walk after the last one.
func (w *walker) finished() {
	w.mu.Lock()
	w.pending--
	last := w.pending == 0
	if last {
		w.done = true
	}
	w.mu.Unlock()
	if last {
		w.cond.Broadcast()
	}
}

// work runs jobs until the walk is over.
func (w *walker) work(ctx context.Context, visit visitFunc) {
	for {
		j, ok := w.next()
		if !ok {
			return
		}
		files := j.files
		if j.dir != "" {
			files = w.readDir(j)
		}
		for _, f := range files {
			if ctx.Err() != nil {
				break
			}
			if w.opts.onVisit != nil {
				w.opts.onVisit(f.path)
			}
			visit(f.path, f.entry)
		}
		w.finished()
	}
}

// readDir reads one directory, queues the subdirectories and the files
// beyond the first batch, and returns the first batch to visit now.
func (w *walker) readDir(j walkJob) []fileEntry {
	f, err := openDir(j.dir)
	if err != nil {
		return nil
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil && len(entries) == 0 {
		return nil
	}
	lvl := w.levelFor(j, entries)
	var files []fileEntry
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		typ := e.Type()
		isDir := typ.IsDir()
		switch {
		case isDir, typ.IsRegular():
		case typ&fs.ModeSymlink != 0 && w.opts.symlinks:
		default:
			continue
		}
		path := filepath.Join(j.dir, name)
		if !w.admit(lvl, path, name, isDir) {
			continue
		}
		if isDir {
			w.push(walkJob{dir: path, parent: lvl})
			continue
		}
		files = append(files, fileEntry{path: path, entry: e})
	}
	for len(files) > batchSize {
		w.push(walkJob{files: files[len(files)-batchSize:]})
		files = files[:len(files)-batchSize]
	}
	return files
}

// levelFor returns the ignore chain for the entries of the job's
// directory: the parent's, extended when the directory holds ignore files.
func (w *walker) levelFor(j walkJob, entries []fs.DirEntry) *level {
	if j.root {
		return rootLevel(j.dir)
	}
	var files ignoreFiles
	for _, e := range entries {
		if name := e.Name(); name[0] == '.' {
			files.note(name, e.IsDir())
		}
	}
	if !files.any() {
		return j.parent
	}
	return newLevel(j.parent, j.dir, files)
}

// admit decides one entry in ripgrep's order: the include filter, then the
// ignore files, then hiddenness.
func (w *walker) admit(lvl *level, path, name string, isDir bool) bool {
	if inc := w.opts.include; inc != nil {
		matched := inc.Matches(relTo(w.root, path), isDir)
		switch {
		case inc.Negated() && matched:
			return false
		case !inc.Negated() && matched:
			return true
		case !inc.Negated() && !isDir:
			return false
		}
	}
	switch lvl.decide(path, isDir) {
	case ignore.Ignore:
		return false
	case ignore.Whitelist:
		return true
	}
	return w.opts.hidden || name[0] != '.'
}
