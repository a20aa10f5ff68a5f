//go:build unix

package app_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/app"
)

// TestCommandFilesLeadingOutsideAreSkipped: a project's slash-command
// file is read only where its real path lies inside the workspace root: a
// link to a key outside, a chain of links, a commands directory that links
// outside and a FIFO are skipped (the FIFO without waiting); a link to a
// file inside is read.
func TestCommandFilesLeadingOutsideAreSkipped(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "ws"), filepath.Join(base, "home")
	commands := filepath.Join(root, ".dsh", "commands")
	for _, dir := range []string{commands, filepath.Join(outside, "commands"), filepath.Join(root, "docs")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, path string) {
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(outside, "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----")
	write(filepath.Join(outside, "commands", "elsewhere.md"), "from outside")
	write(filepath.Join(root, "docs", "review.md"), "Review it.")
	link(filepath.Join(outside, "id_ed25519"), filepath.Join(commands, "key.md"))
	link("key.md", filepath.Join(commands, "chain.md"))
	link("../../docs/review.md", filepath.Join(commands, "review.md"))
	if err := syscall.Mkfifo(filepath.Join(commands, "fifo.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	linkedDir := filepath.Join(root, "linked")
	link(filepath.Join(outside, "commands"), linkedDir)

	got := app.LoadCommands(app.CommandDir{Dir: linkedDir, Within: root}, app.CommandDir{Dir: commands, Within: root})
	if len(got) != 1 || got[0].Name != "review" || got[0].Prompt != "Review it." {
		t.Errorf("commands = %+v, want only /review", got)
	}
}
