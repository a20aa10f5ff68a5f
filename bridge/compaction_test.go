package bridge_test

import (
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// compactionInitialize advertises compaction updates (schema 1.25).
const compactionInitialize = `{"protocolVersion":1,"clientCapabilities":{"session":{"compaction":{}}}}`

// compactionKinds lists the compaction updates among us, as
// "<kind> <status>".
func compactionKinds(us []update) []string {
	var out []string
	for _, u := range us {
		switch u.Kind {
		case "compaction_update":
			out = append(out, u.Kind+" "+u.Status)
		case "compaction_summary_chunk":
			out = append(out, u.Kind)
		}
	}
	return out
}

func TestCompactShowsTheCompactionAndLoadReplaysIt(t *testing.T) {
	state, dir := t.TempDir(), tempDir(t)
	model := llm.NewScripted(llm.Message{Content: "one"}, llm.Message{Content: "two"}, llm.Message{Content: "three"},
		llm.Message{Content: "We said one, two and three."})
	e := newEnv(t, withProvider(model), withStore(openStore(t, state)), withDir(dir))
	e.initialize(compactionInitialize)
	s := e.newSession("")
	for _, text := range []string{"first", "second", "third"} {
		e.prompt(s, text)
	}
	if got := e.prompt(s, "/compact"); got != "end_turn" {
		t.Fatalf("/compact = %s", got)
	}
	want := []string{"compaction_update in_progress", "compaction_summary_chunk", "compaction_update completed"}
	if got := compactionKinds(e.updates(s)); !slices.Equal(got, want) {
		t.Fatalf("compaction updates = %q, want %q", got, want)
	}
	for _, u := range e.updates(s) {
		if u.Kind == "tool_call" && u.ToolKind == "think" {
			t.Errorf("a compaction card went to a client that shows compactions: %+v", u)
		}
	}
	e.c.Close()

	e2 := newEnv(t, withStore(openStore(t, state)), withDir(dir))
	e2.initialize(compactionInitialize)
	if err := e2.load(s, dir, nil); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	if got := compactionKinds(e2.updates(s)); !slices.Equal(got, want) {
		t.Errorf("the replay's compaction updates = %q, want %q", got, want)
	}
}
