package subagent

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/dsh-acp/dsh-acp/workspace"
)

// Dir is a directory of user-defined subagent types, with the directory
// its files must resolve into once links are followed.
type Dir struct {
	Dir    string
	Within string
}

// maxTypeFile bounds a type file.
const maxTypeFile = 64 << 10

// typeName is what a user-defined type may be called.
var typeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// LoadTypes reads the user-defined types: each Markdown file <name>.md in
// dirs is the type <name>. Its front matter (between two "---" lines)
// holds "description:", "tools:" (the allow list), "deny:" and "model:"
// lines — a list as "a, b", "[a, b]" or "- a" lines below the key — and
// its body is the child's instructions. A later directory's type replaces
// an earlier one of the same name, so pass the user's directory first and
// the project's last. A missing directory holds none. A type that only
// reads (an allow list of read tools) is read-only and runs in parallel.
// Files that cannot be types are skipped, and each one's problem returned:
// a name that is not a type's (letters, digits, - and _), the name of a
// built-in type, a file too large, unreadable, not regular, or leading
// outside its directory's Within, front matter that does not parse.
func LoadTypes(dirs ...Dir) (types []Type, problems []error) {
	byName := map[string]Type{}
	builtins := Builtins()
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir.Dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), ".md")
			if !ok {
				continue
			}
			path := filepath.Join(dir.Dir, e.Name())
			t, err := loadType(path, name, dir.Within)
			if err == nil && slices.ContainsFunc(builtins, func(b Type) bool { return b.Name == name }) {
				err = fmt.Errorf("subagent type %s: %q is a built-in type's name", path, name)
			}
			if err != nil {
				problems = append(problems, err)
				continue
			}
			byName[name] = t
		}
	}
	for _, t := range byName {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool { return types[i].Name < types[j].Name })
	return types, problems
}

// loadType reads the type name from path, a file inside within.
func loadType(path, name, within string) (Type, error) {
	if !typeName.MatchString(name) {
		return Type{}, fmt.Errorf("subagent type %s: %q is not a type name (letters, digits, - and _)", path, name)
	}
	data, _, err := workspace.ReadFileWithin(path, maxTypeFile, within)
	if err != nil {
		return Type{}, fmt.Errorf("subagent type %s: %w", path, err)
	}
	if len(data) > maxTypeFile {
		return Type{}, fmt.Errorf("subagent type %s: longer than %d bytes", path, maxTypeFile)
	}
	t, err := ParseType(name, strings.ReplaceAll(string(data), "\r\n", "\n"))
	if err != nil {
		return Type{}, fmt.Errorf("subagent type %s: %w", path, err)
	}
	t.Source = path
	return t, nil
}

// ParseType reads the type name from the text of its file (see
// LoadTypes).
func ParseType(name, text string) (Type, error) {
	t := Type{Name: name}
	body := text
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		head, after, ok := strings.Cut(rest, "\n---\n")
		if !ok {
			head, ok = strings.CutSuffix(rest, "\n---")
			after = ""
		}
		if !ok {
			return Type{}, fmt.Errorf("the front matter opened by --- is never closed")
		}
		body = after
		if err := t.readFrontMatter(head); err != nil {
			return Type{}, err
		}
	}
	t.Instructions = strings.TrimSpace(body)
	if t.Instructions == "" {
		return Type{}, fmt.Errorf("no instructions: the file's body tells the subagent how to work")
	}
	if t.Description == "" {
		return Type{}, fmt.Errorf("no description: the front matter's description says when to use the type")
	}
	if t.Tools != nil && onlyReads(t.Tools) {
		t.ReadOnly, t.Parallel = true, true
	}
	return t, nil
}

// readFrontMatter sets t's fields from the front matter head.
func (t *Type) readFrontMatter(head string) error {
	var list *[]string // the list a "- item" line adds to
	for n, line := range strings.Split(head, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if item, ok := strings.CutPrefix(trimmed, "- "); ok && list != nil {
			*list = append(*list, unquote(item))
			continue
		}
		key, value, ok := strings.Cut(trimmed, ":")
		if !ok {
			return fmt.Errorf("front matter line %d: want key: value, got %q", n+1, trimmed)
		}
		value = strings.TrimSpace(value)
		list = nil
		switch strings.TrimSpace(key) {
		case "description":
			t.Description = unquote(value)
		case "model":
			t.Model = unquote(value)
		case "tools":
			t.Tools = splitList(value)
			list = &t.Tools
		case "deny":
			t.Deny = splitList(value)
			list = &t.Deny
		default:
			return fmt.Errorf("front matter line %d: unknown key %q (want description, tools, deny or model)", n+1, key)
		}
	}
	return nil
}

// splitList reads "a, b" or "[a, b]"; "" is an empty, non-nil list that
// "- item" lines may fill.
func splitList(value string) []string {
	value = strings.TrimSuffix(strings.TrimPrefix(value, "["), "]")
	out := []string{}
	for _, item := range strings.Split(value, ",") {
		if item = unquote(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

func unquote(s string) string {
	return strings.Trim(strings.TrimSpace(s), `"'`)
}
