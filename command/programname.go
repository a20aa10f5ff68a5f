package command

import "strings"

// programRule is how a platform finds a program by name: whether names
// differ by case only (they do not where the file system ignores case:
// Windows and macOS, so `GIT push` runs git there), and whether ".exe"
// may be left off (Windows).
type programRule struct {
	foldCase, dropExe bool
}

// key is the name under which r finds the program name: two names with
// the same key run the same program.
func (r programRule) key(name string) string {
	if r.foldCase {
		name = strings.ToLower(name)
	}
	if r.dropExe {
		name = strings.TrimSuffix(name, ".exe")
	}
	return name
}

// sameProgram reports whether a and b name the same program on this
// platform (hostProgramRule).
func sameProgram(a, b string) bool {
	rule := hostProgramRule()
	return rule.key(a) == rule.key(b)
}
