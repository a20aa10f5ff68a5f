package search

import (
	"os"
	"path/filepath"

	"github.com/dsh-acp/dsh-acp/tools/search/internal/ignore"
)

// level is one directory's ignore rules in the chain from the outermost
// directory whose rules apply down to a directory being walked. Levels are
// immutable once built, so walkers share them freely.
type level struct {
	parent  *level
	dir     string        // clean absolute directory
	rg      *ignore.Rules // its .rgignore; nil when none
	dot     *ignore.Rules // its .ignore
	rules   *ignore.Rules // its .gitignore
	exclude *ignore.Rules // .git/info/exclude when it is a repository root
	repo    bool          // it holds .git: git rules above stop applying here
}

// ignoreFiles says which ignore files a directory holds.
type ignoreFiles struct {
	rg, dot, git bool // .rgignore, .ignore, .gitignore
	repo, gitDir bool // .git exists; .git is a directory
}

// any reports whether the directory needs a level of its own.
func (f ignoreFiles) any() bool { return f.rg || f.dot || f.git || f.repo }

// note records one directory entry's name.
func (f *ignoreFiles) note(name string, isDir bool) {
	switch name {
	case ".rgignore":
		f.rg = true
	case ".ignore":
		f.dot = true
	case ".gitignore":
		f.git = true
	case ".git":
		f.repo, f.gitDir = true, isDir
	}
}

// newLevel reads the ignore files of dir that files says it holds.
func newLevel(parent *level, dir string, files ignoreFiles) *level {
	l := &level{parent: parent, dir: dir, repo: files.repo}
	read := func(ok bool, elem ...string) *ignore.Rules {
		if !ok {
			return nil
		}
		data, err := os.ReadFile(filepath.Join(append([]string{dir}, elem...)...))
		if r := ignore.Parse(data); err == nil && r.Len() > 0 {
			return r
		}
		return nil
	}
	l.rg = read(files.rg, ".rgignore")
	l.dot = read(files.dot, ".ignore")
	l.rules = read(files.git, ".gitignore")
	l.exclude = read(files.gitDir, ".git", "info", "exclude")
	return l
}

// rootLevel builds the chain for a walk rooted at root, as ripgrep does:
// the ignore files of root and of every ancestor (decide stops applying
// git's rules above the nearest repository root).
func rootLevel(root string) *level {
	var dirs []string
	for dir := root; ; dir = filepath.Dir(dir) {
		dirs = append(dirs, dir)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	var l *level
	for i := len(dirs) - 1; i >= 0; i-- {
		dir := dirs[i]
		var files ignoreFiles
		for _, name := range []string{".rgignore", ".ignore", ".gitignore", ".git"} {
			if info, err := os.Lstat(filepath.Join(dir, name)); err == nil {
				files.note(name, info.IsDir())
			}
		}
		if files.any() {
			l = newLevel(l, dir, files)
		}
	}
	return l
}

// decide returns what the chain's ignore files say about path (absolute),
// with ripgrep's precedence: .rgignore, then .ignore, then .gitignore,
// then the repository's info/exclude; within each kind the deepest file
// with a matching pattern decides, and git's rules from directories above
// the nearest repository root never apply.
func (l *level) decide(path string, isDir bool) ignore.Match {
	for x := l; x != nil; x = x.parent {
		if m := x.rg.Match(relTo(x.dir, path), isDir); m != ignore.None {
			return m
		}
	}
	for x := l; x != nil; x = x.parent {
		if m := x.dot.Match(relTo(x.dir, path), isDir); m != ignore.None {
			return m
		}
	}
	for x := l; x != nil; x = x.parent {
		if x.rules != nil {
			if m := x.rules.Match(relTo(x.dir, path), isDir); m != ignore.None {
				return m
			}
		}
		if x.repo {
			break
		}
	}
	for x := l; x != nil; x = x.parent {
		if x.exclude != nil {
			if m := x.exclude.Match(relTo(x.dir, path), isDir); m != ignore.None {
				return m
			}
		}
		if x.repo {
			break
		}
	}
	return ignore.None
}

// relTo returns path relative to dir, slash-separated; path lies below dir.
func relTo(dir, path string) string {
	if dir == string(filepath.Separator) {
		return filepath.ToSlash(path[1:])
	}
	return filepath.ToSlash(path[len(dir)+1:])
}
