package subagent_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/subagent"
)

func TestParseType(t *testing.T) {
	tests := []struct {
		name, text string
		want       subagent.Type
		err        string
	}{
		{
			name: "lists inline and in blocks",
			text: "---\ndescription: \"Reviews changes\"\ntools: [read, grep]\ndeny:\n  - bash\n  - 'write'\nmodel: deepseek-v4-pro\n---\nReview carefully.\n",
			want: subagent.Type{Name: "t", Description: "Reviews changes", Tools: []string{"read", "grep"}, Deny: []string{"bash", "write"},
				Model: "deepseek-v4-pro", Instructions: "Review carefully.", ReadOnly: true, Parallel: true},
		},
		{
			name: "deny only",
			text: "---\ndescription: d\ndeny: bash, write\n---\nDo it.",
			want: subagent.Type{Name: "t", Description: "d", Deny: []string{"bash", "write"}, Instructions: "Do it."},
		},
		{
			name: "an allow list with a writer is not read-only",
			text: "---\ndescription: d\ntools: read, edit\n---\nDo it.",
			want: subagent.Type{Name: "t", Description: "d", Tools: []string{"read", "edit"}, Instructions: "Do it."},
		},
		{name: "no description", text: "Do it.", err: "no description"},
		{name: "no body", text: "---\ndescription: d\n---\n", err: "no instructions"},
		{name: "unclosed", text: "---\ndescription: d\nDo it.", err: "never closed"},
		{name: "unknown key", text: "---\ndescription: d\ncolor: red\n---\nx", err: `unknown key "color"`},
		{name: "not key value", text: "---\ndescription: d\njust words\n---\nx", err: "want key: value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := subagent.ParseType("t", tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tt.want.Name || got.Description != tt.want.Description || !slices.Equal(got.Tools, tt.want.Tools) ||
				!slices.Equal(got.Deny, tt.want.Deny) || got.Model != tt.want.Model || got.Instructions != tt.want.Instructions ||
				got.ReadOnly != tt.want.ReadOnly || got.Parallel != tt.want.Parallel || (got.Tools == nil) != (tt.want.Tools == nil) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestLoadTypes: the project's type wins over the user's of the same
// name; a built-in name, a bad name, a file linking out of its directory
// are skipped with a problem each.
func TestLoadTypes(t *testing.T) {
	user, project, outside := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(dir, name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(user, "review.md", "---\ndescription: the user's\n---\nuser")
	write(user, "docs.md", "---\ndescription: docs\ntools: read\n---\nwrite docs")
	write(project, "review.md", "---\ndescription: the project's\n---\nproject")
	write(project, "explore.md", "---\ndescription: hijack\n---\nx")
	write(project, "bad name.md", "---\ndescription: d\n---\nx")
	write(project, "notes.txt", "not a type")
	write(outside, "secret.md", "---\ndescription: d\n---\nx")
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(project, "leak.md")); err != nil {
		t.Fatal(err)
	}
	types, problems := subagent.LoadTypes(
		subagent.Dir{Dir: user, Within: user},
		subagent.Dir{Dir: project, Within: project},
		subagent.Dir{Dir: filepath.Join(project, "missing"), Within: project},
	)
	var names []string
	for _, ty := range types {
		names = append(names, ty.Name)
	}
	if !slices.Equal(names, []string{"docs", "review"}) {
		t.Fatalf("types %v", names)
	}
	if types[1].Description != "the project's" || types[1].Source != filepath.Join(project, "review.md") {
		t.Errorf("review = %+v, want the project's", types[1])
	}
	if !types[0].ReadOnly || !types[0].Parallel {
		t.Errorf("docs = %+v, want read-only and parallel", types[0])
	}
	joined := ""
	for _, p := range problems {
		joined += p.Error() + "\n"
	}
	mustContain(t, "the problems", joined, "built-in type's name", "not a type name", "leak.md")
	if len(problems) != 3 {
		t.Errorf("problems:\n%s", joined)
	}
}

// TestTaskToolDescribesEveryType: the task tool's description lists the
// built-in and the user's types, and its subagent_type names them.
func TestTaskToolDescribesEveryType(t *testing.T) {
	f := newFixture(t, fixtureOptions{types: []subagent.Type{{Name: "review", Description: "Reviews a change.\nMore.", Instructions: "x"}}})
	tool := f.reg.Get(subagent.TaskTool, f.scope)
	mustContain(t, "the description", tool.Description(), "- explore: ", "- general: ", "- review: Reviews a change.")
	mustContain(t, "the parameters", tool.Parameters(), `"enum":["explore","general","review"]`, `"output_schema":{"type":"object"`)
}
