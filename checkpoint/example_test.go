package checkpoint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dsh-acp/dsh-acp/checkpoint"
)

// A checkpoint before a turn and one after it, and /undo: the turn's edit
// is reverted and the file it created removed.
func ExampleCheckpoints_Undo() {
	ctx := context.Background()
	root, _ := os.MkdirTemp("", "project")
	state, _ := os.MkdirTemp("", "state")
	defer os.RemoveAll(root)
	defer os.RemoveAll(state)
	root, _ = filepath.EvalSymlinks(root)
	os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n"), 0o644)

	cps, err := checkpoint.Open(ctx, checkpoint.Options{Root: root, StateDir: state, Stack: "session-1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := cps.Push(ctx, "turn 1"); err != nil {
		fmt.Println(err)
		return
	}
	// The turn edits main.go and creates notes.txt.
	os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("todo\n"), 0o644)
	if _, err := cps.Finish(ctx); err != nil { // the turn ends
		fmt.Println(err)
		return
	}

	restored, err := cps.Undo(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("undid", restored.Checkpoint.Label)
	for _, c := range restored.Changes {
		rel, _ := filepath.Rel(root, c.Path)
		switch {
		case c.After == nil:
			fmt.Println("removed", rel)
		case c.Before == nil:
			fmt.Println("recreated", rel)
		default:
			fmt.Printf("restored %s: %q\n", rel, *c.After)
		}
	}
	// Output:
	// undid turn 1
	// restored main.go: "package main\n"
	// removed notes.txt
}
