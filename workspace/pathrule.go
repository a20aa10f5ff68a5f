package workspace

import "strings"

// pathRule is how a platform writes and compares paths, as one value so
// that the comparison is one pure function whose Windows and macOS cases
// the tests run on every platform. The platform's own rule is hostRule
// (pathrule_windows.go, pathrule_darwin.go, pathrule_other.go).
type pathRule struct {
	// windows: paths start with a volume (a drive "C:" or a UNC share
	// `\\host\share`), and both `\` and `/` separate names.
	windows bool
	// fold: names compare case-insensitively (Windows, and macOS, whose
	// file systems ignore case by default).
	fold bool
}

// isSep reports whether c separates names.
func (r pathRule) isSep(c byte) bool { return c == '/' || (r.windows && c == '\\') }

// sep is the separator paths are written with.
func (r pathRule) sep() string {
	if r.windows {
		return `\`
	}
	return "/"
}

// volume returns the volume p starts with: "C:" or `\\host\share` on
// Windows (a device path `\\?\…` or `\\.\…` gives `\\?\…` up to its
// second name), "" elsewhere.
func (r pathRule) volume(p string) string {
	if !r.windows {
		return ""
	}
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		return p[:2]
	}
	if len(p) < 2 || !r.isSep(p[0]) || !r.isSep(p[1]) {
		return ""
	}
	// \\host\share: the volume ends before the separator after share.
	seps := 0
	for i := 2; i < len(p); i++ {
		if r.isSep(p[i]) {
			if seps++; seps == 2 {
				return p[:i]
			}
		}
	}
	return p
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// rooted reports whether p starts at a root: after its volume comes a
// separator, or its volume is a UNC share (always rooted).
func (r pathRule) rooted(p string) bool {
	vol := r.volume(p)
	if len(vol) > 2 {
		return true
	}
	rest := p[len(vol):]
	return rest != "" && r.isSep(rest[0])
}

// names returns the names of p after its volume, "." dropped and ".."
// taken away with the name before it (at the root, a ".." stays there; in
// a relative path, leading ".." are kept).
func (r pathRule) names(p string) []string {
	var out []string
	rooted := r.rooted(p)
	for name := range strings.FieldsFuncSeq(p[len(r.volume(p)):], func(c rune) bool { return c < 0x80 && r.isSep(byte(c)) }) {
		switch {
		case name == ".":
		case name == ".." && len(out) > 0 && out[len(out)-1] != "..":
			out = out[:len(out)-1]
		case name == ".." && rooted:
		default:
			out = append(out, name)
		}
	}
	return out
}

// same reports whether two names (or volumes) are the same under r.
func (r pathRule) same(a, b string) bool {
	if r.fold {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// sameVolume reports whether two volumes are the same: drive letters and
// UNC names ignore case, and a UNC volume may be written with either
// separator.
func (r pathRule) sameVolume(a, b string) bool {
	if !r.windows {
		return a == b
	}
	return strings.EqualFold(strings.ReplaceAll(a, "/", `\`), strings.ReplaceAll(b, "/", `\`))
}

// relative returns path relative to dir (written with path's own names
// and r's separator) when path is dir (".") or lies below it, comparing
// names as r does; ok is false otherwise, and for paths on different
// volumes or of which one is absolute and the other not.
func (r pathRule) relative(dir, path string) (rel string, ok bool) {
	if !r.sameVolume(r.volume(dir), r.volume(path)) || r.rooted(dir) != r.rooted(path) {
		return "", false
	}
	dn, pn := r.names(dir), r.names(path)
	if len(pn) < len(dn) {
		return "", false
	}
	for i, name := range dn {
		if !r.same(name, pn[i]) {
			return "", false
		}
	}
	if len(pn) == len(dn) {
		return ".", true
	}
	return strings.Join(pn[len(dn):], r.sep()), true
}

// join is path taken against the absolute directory cwd: an absolute
// path as it is; on Windows, a path rooted without a volume (`\x`) on
// cwd's volume; anything else below cwd.
func (r pathRule) join(cwd, path string) string {
	switch {
	case r.abs(path):
		return path
	case r.windows && path != "" && r.isSep(path[0]):
		return r.volume(cwd) + path
	}
	return cwd + r.sep() + path
}

// abs reports whether path is absolute: on Windows a volume and a root,
// elsewhere a leading "/".
func (r pathRule) abs(path string) bool {
	return r.rooted(path) && (!r.windows || r.volume(path) != "")
}

// refuse says why path can name no file this process can be sure of, or
// "": on Windows, a path relative to another drive's own current
// directory ("D:x"), a device path (`\\?\…`, `\\.\…`), which skip the
// checks the file system makes of ordinary paths, and a name Windows
// reads as another file (refuseElements).
func (r pathRule) refuse(path string) string {
	if !r.windows {
		return ""
	}
	if vol := r.volume(path); len(vol) == 2 && !r.abs(path) {
		return "is relative to the current directory of drive " + vol + ", which this process does not know: pass an absolute path or one relative to the working directory"
	}
	if len(path) >= 4 && r.isSep(path[0]) && r.isSep(path[1]) && (path[2] == '?' || path[2] == '.') && r.isSep(path[3]) {
		return "is a Windows device path (" + path[:4] + "…): pass an ordinary absolute path"
	}
	return r.refuseElements(path)
}
