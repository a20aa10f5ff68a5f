package agent_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dsh-acp/dsh-acp/agent"
)

func ExampleProjectInstructions() {
	root, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(root)
	os.Mkdir(filepath.Join(root, ".git"), 0o700)
	os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("Run `make test` before you finish.\n"), 0o600)
	os.MkdirAll(filepath.Join(root, "cmd", "tool"), 0o700)
	os.WriteFile(filepath.Join(root, "cmd", "tool", "CLAUDE.md"), []byte("This command's flags are documented in README.md.\n"), 0o600)

	instructions, err := agent.ProjectInstructions(filepath.Join(root, "cmd", "tool"))
	fmt.Println(err)
	fmt.Println(instructions)
	// Output:
	// <nil>
	// ## ../../AGENTS.md
	//
	// Run `make test` before you finish.
	//
	// ## CLAUDE.md
	//
	// This command's flags are documented in README.md.
}
