package checkpoint

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// attributes switches off, for every path, each attribute that would
// make git store something other than a file's bytes: end-of-line
// conversion, clean filters (LFS among them), ident expansion and
// re-encoding. $GIT_DIR/info/attributes outranks the project's
// .gitattributes files.
const attributes = "* -text !eol -filter -ident -working-tree-encoding\n"

// ownExcludes are the files the shadow repository never records: the
// temporary files of atomic writes, ours and the workspace's, which come
// and go while a checkpoint is taken.
const ownExcludes = ".*.dsh-write-*.tmp\n.*.dsh-restore-*.tmp\n"

// syncInfoFiles writes the repository's info/attributes and info/exclude
// when they are not what they should be now. info/exclude is rewritten
// only when it changed, since a change makes git look at every directory
// again.
func (c *Checkpoints) syncInfoFiles() error {
	info := filepath.Join(c.gitDir, "info")
	if err := os.MkdirAll(info, dirPerm); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := writeIfChanged(filepath.Join(info, "attributes"), []byte(attributes)); err != nil {
		return err
	}
	return writeIfChanged(filepath.Join(info, "exclude"), c.excludes())
}

// writeIfChanged replaces path by data, atomically, unless it already
// holds data (an empty or unreadable file is replaced too).
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := writeAtomic(path, data, filePerm); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// excludes is the content of the shadow repository's info/exclude: what
// the user's own repository ignores in the root besides the root's
// .gitignore files (which git reads itself), then our own files: the
// temporary files of writes, and the state directory when it lies in the
// root. Later lines win, as in git.
func (c *Checkpoints) excludes() []byte {
	var buf bytes.Buffer
	for _, src := range ignoreSources(c.root) {
		data, err := os.ReadFile(src.path)
		if err != nil {
			continue
		}
		fmt.Fprintf(&buf, "# from %s\n", src.path)
		for line := range strings.Lines(string(data)) {
			if p, ok := rebasePattern(strings.TrimRight(line, "\r\n"), src.at); ok {
				buf.WriteString(p + "\n")
			}
		}
	}
	buf.WriteString("# dsh-acp's own files\n")
	buf.WriteString(ownExcludes)
	if rel, err := filepath.Rel(c.root, c.state); err == nil && filepath.IsLocal(rel) {
		buf.WriteString("/" + filepath.ToSlash(rel) + "/\n")
	}
	return buf.Bytes()
}

// ignoreSource is an ignore file of the user's repository that git, run
// on the shadow repository, would not read itself.
type ignoreSource struct {
	path string
	// at is the root's path relative to the file's directory, with a
	// trailing slash ("" when that directory is the root).
	at string
}

// ignoreSources returns the ignore files that apply to root in the
// repository it lies in, lowest precedence first: the repository's
// .git/info/exclude, then the .gitignore of each directory from the
// repository's top down to root's parent. None when root is in no
// repository.
func ignoreSources(root string) []ignoreSource {
	top, ok := enclosingRepository(root)
	if !ok {
		return nil
	}
	rel, err := filepath.Rel(top, root)
	if err != nil || rel == "." {
		return []ignoreSource{{path: filepath.Join(top, ".git", "info", "exclude")}}
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	sources := []ignoreSource{{path: filepath.Join(top, ".git", "info", "exclude"), at: strings.Join(parts, "/") + "/"}}
	dir := top
	for i, part := range parts {
		sources = append(sources, ignoreSource{path: filepath.Join(dir, ".gitignore"), at: strings.Join(parts[i:], "/") + "/"})
		dir = filepath.Join(dir, part)
	}
	return sources
}

// enclosingRepository returns the top of the git repository root lies in:
// the nearest directory, root included, that has a .git.
func enclosingRepository(root string) (string, bool) {
	for dir := root; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// rebasePattern turns a line of an ignore file that lives at a directory
// above the root (at is the root's path relative to that directory, with
// a trailing slash; "" for the root itself) into the line that means the
// same relative to the root. ok is false for lines that mean nothing there:
// blank lines, comments, and patterns anchored to another directory, or to
// the root itself, or whose anchored part has wildcards (left out rather
// than guessed).
func rebasePattern(line, at string) (string, bool) {
	trimmed := strings.TrimRight(line, " ")
	if trimmed == "" || strings.HasPrefix(trimmed, "#") {
		return "", false
	}
	if at == "" {
		return line, true
	}
	neg := ""
	pattern := trimmed
	if strings.HasPrefix(pattern, "!") {
		neg, pattern = "!", pattern[1:]
	}
	dirOnly := strings.HasSuffix(pattern, "/")
	body := strings.TrimSuffix(pattern, "/")
	if !strings.Contains(body, "/") || strings.HasPrefix(body, "**/") {
		return line, true // it matches at any depth
	}
	body = strings.TrimPrefix(body, "/")
	rest, found := strings.CutPrefix(body, at)
	if !found || rest == "" {
		return "", false
	}
	if dirOnly {
		rest += "/"
	}
	return neg + "/" + rest, true
}
