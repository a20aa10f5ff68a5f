package app_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/app"
)

func TestLoadCommands(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	files := map[string]string{
		filepath.Join(user, "review.md"):      "Review the changes in $ARGUMENTS carefully.\n",
		filepath.Join(user, "shared.md"):      "the user's version",
		filepath.Join(project, "shared.md"):   "---\ndescription: \"The project's version\"\n---\nDo it the project's way.\n",
		filepath.Join(project, "bad name.md"): "skipped",
		filepath.Join(project, "notes.txt"):   "skipped",
		filepath.Join(project, "big.md"):      string(make([]byte, 70<<10)),
	}
	for path, text := range files {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := app.LoadCommands(app.CommandDir{Dir: user, Within: user}, app.CommandDir{Dir: filepath.Join(t.TempDir(), "missing")},
		app.CommandDir{Dir: project, Within: project})
	want := []struct{ name, description, prompt string }{
		{"review", "Review the changes in $ARGUMENTS carefully.", "Review the changes in $ARGUMENTS carefully."},
		{"shared", "The project's version", "Do it the project's way."},
	}
	if len(got) != len(want) {
		t.Fatalf("commands = %+v", got)
	}
	for i, w := range want {
		if got[i].Name != w.name || got[i].Description != w.description || got[i].Prompt != w.prompt {
			t.Errorf("command %d = %+v, want %+v", i, got[i], w)
		}
	}
}
