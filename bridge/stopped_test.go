package bridge_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// stoppedMark reports whether an update's _meta marks its call stopped
// ("dsh-acp": {"stopped": true}).
func stoppedMark(u update) bool {
	var own struct {
		Stopped bool `json:"stopped"`
	}
	raw, ok := u.Meta["dsh-acp"]
	return ok && json.Unmarshal(raw, &own) == nil && own.Stopped
}

// markedCalls maps each call of us to whether its final update is failed
// and marked stopped, and says which other updates carry the mark.
func markedCalls(t *testing.T, where string, us []update, ids []string) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	for _, id := range ids {
		c := forCall(us, id)
		if len(c) == 0 {
			t.Errorf("%s: no updates for %s", where, id)
			continue
		}
		last := c[len(c)-1]
		got[id] = stoppedMark(last)
		if got[id] && last.Status != "failed" {
			t.Errorf("%s: %s is marked stopped with status %q, want failed", where, id, last.Status)
		}
		for _, u := range c[:len(c)-1] {
			if stoppedMark(u) {
				t.Errorf("%s: %s is marked stopped before its final update: %s", where, id, u.Raw)
			}
		}
	}
	return got
}

// A call the turn's cancel stopped has its final update marked
// "dsh-acp": {"stopped": true} (status failed), live and when session/load
// replays it: a command bash stopped, another tool the pipeline stopped
// while it ran, and a call the cancel kept from starting. A command that
// failed by itself (exit 3) is failed and not marked.
func TestStoppedCallsAreMarked(t *testing.T) {
	model := llm.NewScripted(
		toolStep("c_exit3", "bash", map[string]any{"command": "exit 3"}),
		llm.Message{Content: "it failed"},
		llm.Message{ToolCalls: []llm.ToolCall{
			call("c_sleep", "bash", map[string]any{"command": sleeper("pids")}),
			call("c_after_sleep", "read", map[string]any{"file_path": "notes.txt"}),
		}},
		llm.Message{ToolCalls: []llm.ToolCall{
			call("c_review", "exit_plan_mode", map[string]any{"plan": thePlan}),
			call("c_after_review", "read", map[string]any{"file_path": "notes.txt"}),
		}},
	)
	state, dir := t.TempDir(), tempDir(t)
	writeFile(t, dir+"/notes.txt", "notes\n")
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess), withStore(openStore(t, state)), withDir(dir))
	asked := make(chan struct{}, 1)
	e.c.Handle("session/request_permission", func(ctx context.Context, _ json.RawMessage) (any, error) {
		asked <- struct{}{}
		<-ctx.Done()
		return json.RawMessage(`{"outcome":{"outcome":"cancelled"}}`), nil
	})
	e.initialize(zedInitialize)
	newEditor(e.c, map[string]string{})
	s := e.newSession("")

	if got := e.prompt(s, "fail"); got != "end_turn" {
		t.Fatalf("first turn: stopReason = %s", got)
	}
	turn := e.startPrompt(s, "sleep")
	commandGroup(t, dir+"/pids")
	e.cancel(s)
	if got := turn.stop(); got != "cancelled" {
		t.Fatalf("second turn: stopReason = %s, want cancelled", got)
	}
	e.setMode(s, string(policy.Plan))
	turn = e.startPrompt(s, "plan")
	<-asked
	e.cancel(s)
	if got := turn.stop(); got != "cancelled" {
		t.Fatalf("third turn: stopReason = %s, want cancelled", got)
	}

	ids := []string{"c_exit3", "c_sleep", "c_after_sleep", "c_review", "c_after_review"}
	want := map[string]bool{"c_exit3": false, "c_sleep": true, "c_after_sleep": true, "c_review": true, "c_after_review": true}
	live := e.updates(s)
	if st := finalStatus(forCall(live, "c_exit3")); st != "failed" {
		t.Errorf("exit 3: status %q, want failed", st)
	}
	check := func(where string, us []update) {
		t.Helper()
		got := markedCalls(t, where, us, ids)
		for _, id := range ids {
			if got[id] != want[id] {
				t.Errorf("%s: %s marked stopped = %t, want %t", where, id, got[id], want[id])
			}
		}
	}
	check("live", live)
	e.c.Close()

	e2 := newEnv(t, withStore(openStore(t, state)), withDir(dir))
	e2.initialize(zedInitialize)
	if err := e2.load(s, dir, nil); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	check("replay", e2.updates(s))
}

// terminalExitOf is the terminal_exit an update's _meta carries, if any.
func terminalExitOf(t *testing.T, u update) (exit struct {
	TerminalID string  `json:"terminal_id"`
	ExitCode   *int    `json:"exit_code"`
	Signal     *string `json:"signal"`
}, ok bool) {
	t.Helper()
	raw, ok := u.Meta["terminal_exit"]
	if !ok {
		return exit, false
	}
	if err := json.Unmarshal(raw, &exit); err != nil {
		t.Errorf("terminal_exit %s: %v", raw, err)
	}
	return exit, true
}

// Under the terminal convention a command the turn's cancel stopped ends
// its terminal as an ended command does, live and on replay: its final
// update carries the rest of its output and a terminal_exit with the
// signal that really ended it (SIGTERM, the stop's first), no content that
// would replace the terminal, and the stopped mark. A command the cancel
// kept from starting ends its terminal too, with neither exit code nor
// signal (the convention's nulls), saying it did not run.
func TestStoppedCommandEndsItsTerminal(t *testing.T) {
	model := llm.NewScripted(llm.Message{ToolCalls: []llm.ToolCall{
		call("c_sleep", "bash", map[string]any{"command": "echo started; " + sleeper("pids")}),
		call("c_never", "bash", map[string]any{"command": "echo never"}),
	}})
	state, dir := t.TempDir(), tempDir(t)
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess), withStore(openStore(t, state)), withDir(dir))
	e.initialize(zedInitialize)
	s := e.newSession("")
	turn := e.startPrompt(s, "sleep")
	commandGroup(t, dir+"/pids")
	e.cancel(s)
	if got := turn.stop(); got != "cancelled" {
		t.Fatalf("stopReason = %s, want cancelled", got)
	}
	live := e.updates(s)
	e.c.Close()
	e2 := newEnv(t, withStore(openStore(t, state)), withDir(dir))
	e2.initialize(zedInitialize)
	if err := e2.load(s, dir, nil); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	replay := e2.updates(s)

	tests := []struct {
		id, output, signal string
		// says is the text the final update shows instead of the terminal, if any.
		says string
	}{
		{id: "c_sleep", output: "started\n", signal: "SIGTERM"},
		{id: "c_never", says: "Not run: the turn was cancelled before it started."},
	}
	for _, where := range []struct {
		name string
		us   []update
	}{{"live", live}, {"replay", replay}} {
		for _, tt := range tests {
			c := forCall(where.us, tt.id)
			if len(c) < 2 {
				t.Errorf("%s: %s has %d updates", where.name, tt.id, len(c))
				continue
			}
			last := c[len(c)-1]
			if !stoppedMark(last) || last.Status != "failed" {
				t.Errorf("%s: %s final update is not failed and marked stopped: %s", where.name, tt.id, last.Raw)
			}
			if says := strings.Contains(string(last.Content), tt.says); len(last.Content) > 0 != (tt.says != "") || !says {
				t.Errorf("%s: %s final update content = %s, want text %q", where.name, tt.id, last.Content, tt.says)
			}
			exit, ok := terminalExitOf(t, last)
			if !ok {
				t.Errorf("%s: %s final update has no terminal_exit: %s", where.name, tt.id, last.Raw)
				continue
			}
			if exit.TerminalID != tt.id || exit.ExitCode != nil || (tt.signal == "") != (exit.Signal == nil) || (exit.Signal != nil && *exit.Signal != tt.signal) {
				t.Errorf("%s: %s terminal_exit = %s, want signal %q", where.name, tt.id, last.Meta["terminal_exit"], tt.signal)
			}
			var data strings.Builder
			for _, u := range c {
				var out struct {
					Data string `json:"data"`
				}
				if raw, ok := u.Meta["terminal_output"]; ok && json.Unmarshal(raw, &out) == nil {
					data.WriteString(out.Data)
				}
			}
			if data.String() != tt.output {
				t.Errorf("%s: %s terminal output adds up to %q, want %q", where.name, tt.id, data.String(), tt.output)
			}
		}
	}
}
