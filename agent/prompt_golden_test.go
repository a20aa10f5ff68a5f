package agent_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
)

var updatePrompt = flag.Bool("update-prompt", false, "rewrite testdata/system-prompt.golden")

// TestSystemPromptGolden holds the whole system prompt of a session with
// two tools and project instructions: a change to what the model is told
// shows in review as a change of this file (go test ./agent
// -run SystemPromptGolden -update-prompt rewrites it).
func TestSystemPromptGolden(t *testing.T) {
	model := llm.NewScripted(llm.Message{Content: "ok"})
	h := newHarness(t, model, func(o *agent.Options) {
		o.Instructions = "## AGENTS.md\n\nRun make test before committing.\n"
		o.Roots = []string{"/home/dev/project", "/home/dev/lib"}
	})
	h.work("read_thing", true)
	h.work("change_thing", false)
	if _, err := h.prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	got := model.Requests()[0].System
	golden := filepath.Join("testdata", "system-prompt.golden")
	if *updatePrompt {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (write it with -update-prompt)", err)
	}
	if got != string(want) {
		t.Errorf("the system prompt changed; if on purpose, rewrite %s with -update-prompt.\ngot:\n%s", golden, got)
	}
}
