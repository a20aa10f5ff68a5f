//go:build unix

package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/dsh-acp/dsh-acp/agent"
)

// A FIFO nobody writes to would block a plain open for ever: it is
// skipped without waiting.
func TestAFIFOIsNotWaitedOn(t *testing.T) {
	root := tree(t, map[string]string{".git/": "", "CLAUDE.md": "kept"})
	if err := syscall.Mkfifo(filepath.Join(root, "AGENTS.md"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got, err := agent.ProjectInstructions(root)
	if err != nil || got != "## CLAUDE.md\n\nkept" {
		t.Errorf("ProjectInstructions = %q, %v", got, err)
	}
}

// TestInstructionLinksLeadingOutsideAreSkipped: an instruction file is
// read only where its real path lies inside the workspace root, however
// the link reaches outside: to a file (a private key), through a linked
// directory, or down a chain of links. A link to a file inside is read.
func TestInstructionLinksLeadingOutsideAreSkipped(t *testing.T) {
	outside := tree(t, map[string]string{"id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----", "gh/copilot-instructions.md": "outside dir"})
	for _, tt := range []struct {
		name  string
		links map[string]string // link (below the root) → target
		want  string
	}{
		{"a link to a key outside", map[string]string{"AGENTS.md": filepath.Join(outside, "id_ed25519")}, "## CLAUDE.md\n\nkept"},
		{"a linked directory outside", map[string]string{".github": filepath.Join(outside, "gh")}, "## CLAUDE.md\n\nkept"},
		{"a chain of links leading outside", map[string]string{"AGENTS.md": "a", "a": "sub/b", "sub/b": "../../" + filepath.Base(outside) + "/id_ed25519"},
			"## CLAUDE.md\n\nkept"},
		{"a relative link climbing out", map[string]string{"GEMINI.md": "../" + filepath.Base(outside) + "/id_ed25519"}, "## CLAUDE.md\n\nkept"},
		{"a chain of links staying inside", map[string]string{"AGENTS.md": "a", "a": "docs/agents.md"}, "## AGENTS.md\n\ninside\n\n## CLAUDE.md\n\nkept"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// The root sits beside outside, so relative links can climb to it.
			root := filepath.Join(filepath.Dir(outside), "ws-"+strings.ReplaceAll(tt.name, " ", "-"))
			if err := os.MkdirAll(filepath.Join(root, ".git"), 0o700); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.RemoveAll(root) })
			write := func(name, text string) {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			write("CLAUDE.md", "kept")
			write("docs/agents.md", "inside")
			for link, target := range tt.links {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
					t.Fatal(err)
				}
			}
			got, err := agent.ProjectInstructions(root)
			if err != nil || got != tt.want {
				t.Errorf("ProjectInstructions = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestAFIFOLinkedFromInsideIsNotWaitedOn: a FIFO reached through a link is
// skipped without waiting too.
func TestAFIFOLinkedFromInsideIsNotWaitedOn(t *testing.T) {
	root := tree(t, map[string]string{".git/": "", "CLAUDE.md": "kept"})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink("pipe", filepath.Join(root, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	got, err := agent.ProjectInstructions(root)
	if err != nil || got != "## CLAUDE.md\n\nkept" {
		t.Errorf("ProjectInstructions = %q, %v", got, err)
	}
}

// TestAnInstructionLinkLeavingItsDirectoryIsSkipped: with the repository
// root above the project (a home directory kept in git), a project's
// AGENTS.md linking to a key elsewhere under that root is still skipped:
// a file counts only inside the directory it was found in.
func TestAnInstructionLinkLeavingItsDirectoryIsSkipped(t *testing.T) {
	home := tree(t, map[string]string{".git/": "", ".ssh/id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----", "src/evil/CLAUDE.md": "kept"})
	if err := os.Symlink("../../.ssh/id_ed25519", filepath.Join(home, "src", "evil", "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	got, err := agent.ProjectInstructions(filepath.Join(home, "src", "evil"))
	if err != nil || got != "## CLAUDE.md\n\nkept" {
		t.Errorf("ProjectInstructions = %q, %v", got, err)
	}
}
