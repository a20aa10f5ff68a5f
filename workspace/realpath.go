package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// maxLinkHops bounds the symbolic links one resolution follows, as the
// kernel's own limit does; a longer chain counts as a loop.
const maxLinkHops = 40

// linkModes are the file modes of a name that may lead elsewhere: a
// symbolic link, and what Windows reports as irregular, a junction (a
// mount point) among them, which os.Readlink reads as a link.
const linkModes = fs.ModeSymlink | fs.ModeIrregular

// realPath returns where path (a relative one taken against the process's
// directory) leads once every symbolic link in it is followed, dangling
// links included: for a file that does not exist yet, the file that
// creating it would create. A name that does not exist (or cannot be
// looked at) is taken as written, and resolution goes on after it, so a
// ".." that leaves it still meets the links beyond. ok is false when the
// links loop or chain past maxLinkHops: no file can be reached through
// path.
func realPath(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", false
		}
		path = abs
	}
	vol := filepath.VolumeName(path)
	resolved := vol + string(filepath.Separator)
	todo := splitNames(path[len(vol):])
	hops := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, name)
		info, err := os.Lstat(next)
		if err != nil || info.Mode()&linkModes == 0 {
			resolved = next
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", false
		}
		target, err := os.Readlink(next)
		if err != nil {
			resolved = next
			continue
		}
		if filepath.IsAbs(target) {
			v := filepath.VolumeName(target)
			resolved, target = v+string(filepath.Separator), target[len(v):]
		}
		todo = append(splitNames(target), todo...)
	}
	return resolved, true
}

// physical returns path (absolute) with "." and ".." taken away the way
// the kernel takes them: a ".." leaves the directory the names before it
// lead to once their symbolic links are followed, not the one the text
// names. "shared/../x", where shared is a link to a directory outside,
// is the x beside that directory, not the x beside shared. The other
// names, the last one included, are kept as written (a link stays a
// link). ok is false when a link before a ".." loops.
func physical(path string) (string, bool) {
	vol := filepath.VolumeName(path)
	out := vol + string(filepath.Separator)
	for _, name := range splitNames(path[len(vol):]) {
		switch name {
		case ".":
		case "..":
			real, ok := realPath(out)
			if !ok {
				return "", false
			}
			out = filepath.Dir(real)
		default:
			out = filepath.Join(out, name)
		}
	}
	return out, true
}

// splitNames splits a path into its names, dropping empty ones.
func splitNames(path string) []string {
	return strings.FieldsFunc(path, func(r rune) bool { return r < utf8.RuneSelf && os.IsPathSeparator(uint8(r)) })
}
