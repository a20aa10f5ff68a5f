//go:build unix

package agent_test

import (
	"path/filepath"
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
