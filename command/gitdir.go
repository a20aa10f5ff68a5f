package command

import (
	"os"
	"path/filepath"
	"strings"
)

// InGitDir reports whether writing the file at path changes what git
// reads as a repository's own files (its config names the programs git
// runs: core.fsmonitor, hooks, diff.external, textconv …):
//
//   - path passes through a directory named .git (in any case: macOS
//     file systems ignore it);
//   - or path is <d>/HEAD, <d>/config, <d>/packed-refs, <d>/commondir or
//     <d>/gitdir, or lies under <d>/objects, <d>/refs, <d>/hooks or
//     <d>/info, where <d> already holds a HEAD or config file or an
//     objects or refs directory: a layout git would take for a (bare)
//     repository. Only what is on disk counts, so the first piece of a
//     layout may be written; the next one asks.
//
// path should be absolute with its links followed (the caller's Target):
// the layout is looked for on disk, and a relative path is taken against
// the process's directory. Names are compared in any case.
func InGitDir(path string) bool {
	if hasGitName(path) {
		return true
	}
	names := strings.Split(filepath.ToSlash(path), "/")
	for k := 1; k < len(names); k++ {
		name := strings.ToLower(names[k])
		last := k == len(names)-1
		switch {
		case name == "objects" || name == "refs" || name == "hooks" || name == "info":
		case last && (name == "head" || name == "config" || name == "packed-refs" || name == "commondir" || name == "gitdir"):
		default:
			continue
		}
		if looksLikeRepository(filepath.FromSlash(strings.Join(names[:k], "/"))) {
			return true
		}
	}
	return false
}

// looksLikeRepository reports whether dir holds a piece of a repository
// layout: a HEAD or config file, or an objects or refs directory (links
// followed).
func looksLikeRepository(dir string) bool {
	if dir == "" {
		dir = string(filepath.Separator)
	}
	for name, wantDir := range map[string]bool{"HEAD": false, "config": false, "objects": true, "refs": true} {
		if info, err := os.Stat(filepath.Join(dir, name)); err == nil && info.IsDir() == wantDir {
			return true
		}
	}
	return false
}

// hasGitName reports whether path, as written, passes through a name
// .git in any case.
func hasGitName(path string) bool {
	for _, name := range strings.Split(filepath.ToSlash(path), "/") {
		if strings.EqualFold(name, ".git") {
			return true
		}
	}
	return false
}
