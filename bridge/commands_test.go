package bridge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/llm"
)

// permissionLog answers every permission request with answer and keeps
// the option names offered.
type permissionLog struct {
	mu      sync.Mutex
	options [][]string
}

func (p *permissionLog) handle(e *env, answer string) {
	e.c.Handle("session/request_permission", func(_ context.Context, params json.RawMessage) (any, error) {
		var req struct {
			Options []struct {
				OptionID string `json:"optionId"`
				Name     string `json:"name"`
			} `json:"options"`
		}
		_ = json.Unmarshal(params, &req)
		var names []string
		for _, o := range req.Options {
			names = append(names, o.OptionID+"="+o.Name)
		}
		p.mu.Lock()
		p.options = append(p.options, names)
		p.mu.Unlock()
		return selected(answer), nil
	})
}

func (p *permissionLog) asked() [][]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([][]string(nil), p.options...)
}

// agentReply is the text of the session's agent message chunks.
func agentReply(e *env, session string) string {
	var b strings.Builder
	for _, u := range e.updates(session) {
		if u.Kind == "agent_message_chunk" {
			b.WriteString(u.chunkText())
		}
	}
	return b.String()
}

// "Always allow" a read outside the workspace is remembered for the
// project: the next process reads there without asking, /permissions
// lists the rule, and removing it makes the prompt come back.
func TestAlwaysAllowIsRememberedAcrossProcesses(t *testing.T) {
	state, dir := t.TempDir(), tempDir(t)
	outside := tempDir(t)
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := os.WriteFile(filepath.Join(outside, f), []byte("hello\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(id, file string) llm.Message {
		return toolStep(id, "read", map[string]any{"file_path": filepath.Join(outside, file)})
	}

	first := newEnv(t, withProvider(llm.NewScripted(read("r1", "a.txt"), llm.Message{Content: "read a"})), withState(state), withDir(dir))
	var asked permissionLog
	asked.handle(first, "allow-always")
	first.initialize(plainInitialize)
	s := first.newSession("")
	first.prompt(s, "read a")
	got := asked.asked()
	if len(got) != 1 || !strings.Contains(strings.Join(got[0], "|"), "allow-always=Always allow read under "+outside+" in this project") {
		t.Fatalf("options offered = %v", got)
	}
	first.c.Close()

	second := newEnv(t, withProvider(llm.NewScripted(read("r2", "b.txt"), llm.Message{Content: "read b"}, read("r3", "c.txt"), llm.Message{Content: "read c"})), withState(state), withDir(dir))
	var again permissionLog
	again.handle(second, "reject-once")
	second.initialize(plainInitialize)
	s2 := second.newSession("")
	second.prompt(s2, "read b")
	if n := len(again.asked()); n != 0 {
		t.Fatalf("a remembered read asked %d times", n)
	}
	if st := finalStatus(forCall(second.updates(s2), "r2")); st != "completed" {
		t.Errorf("the remembered read ended %q", st)
	}
	second.prompt(s2, "/permissions")
	if reply := agentReply(second, s2); !strings.Contains(reply, "1. allow read under "+outside) {
		t.Errorf("/permissions = %q", reply)
	}
	second.prompt(s2, "/permissions remove 1")
	if reply := agentReply(second, s2); !strings.Contains(reply, "Removed: allow read under "+outside) {
		t.Errorf("/permissions remove 1 = %q", reply)
	}
	second.prompt(s2, "read c")
	if n := len(again.asked()); n != 1 {
		t.Errorf("after removing the rule the read asked %d times, want 1", n)
	}
}

// The commands are announced after session/new's answer; /help lists them
// without the model; a custom command and /init become model prompts.
func TestSlashCommands(t *testing.T) {
	dir := tempDir(t)
	if err := os.MkdirAll(filepath.Join(dir, ".dsh", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".dsh", "commands", "review.md"), []byte("Review $ARGUMENTS for bugs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := llm.NewScripted(llm.Message{Content: "Reviewed."}, llm.Message{Content: "Wrote AGENTS.md."})
	e := newEnv(t, withProvider(model), withDir(dir))
	e.initialize(plainInitialize)
	s := e.newSession("")
	announced := e.waitFrame("available_commands_update", func(f acptest.Frame) bool {
		return f.Method == "session/update" && strings.Contains(string(f.Raw), "available_commands_update")
	})
	for _, name := range []string{`"undo"`, `"rewind"`, `"compact"`, `"permissions"`, `"init"`, `"help"`, `"review"`} {
		if name == `"undo"` || name == `"rewind"` {
			continue // only with checkpoints
		}
		if !strings.Contains(string(announced.Raw), `"name":`+name) {
			t.Errorf("the commands announced lack %s: %s", name, announced.Raw)
		}
	}
	answeredAt, announcedAt := -1, -1
	for i, f := range e.c.Frames() {
		if f.Answers == "session/new" && answeredAt < 0 {
			answeredAt = i
		}
		if string(f.Raw) == string(announced.Raw) {
			announcedAt = i
		}
	}
	if announcedAt < answeredAt {
		t.Errorf("the commands (frame %d) came before session/new's answer (frame %d)", announcedAt, answeredAt)
	}

	if got := e.prompt(s, "/help"); got != "end_turn" {
		t.Fatalf("/help = %s", got)
	}
	if reply := agentReply(e, s); !strings.Contains(reply, "/review — Review $ARGUMENTS for bugs.") || !strings.Contains(reply, "/compact") {
		t.Errorf("/help = %q", reply)
	}
	if n := len(model.Requests()); n != 0 {
		t.Errorf("/help asked the model %d times", n)
	}
	e.prompt(s, "/review main.go")
	e.prompt(s, "/init")
	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if last := reqs[0].Messages[len(reqs[0].Messages)-1]; last.Content != "Review main.go for bugs." {
		t.Errorf("/review sent %q", last.Content)
	}
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; !strings.Contains(last.Content, "AGENTS.md") {
		t.Errorf("/init sent %q", last.Content)
	}
	// A /word that is no command goes to the model as it is.
	if e.prompt(s, "/usr/bin is where it lives") != "end_turn" {
		t.Error("a path-like prompt failed")
	}
}
