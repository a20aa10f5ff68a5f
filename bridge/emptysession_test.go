package bridge_test

import (
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
)

// TestAnEmptySessionIsKeptUnlisted: a session closed without a prompt
// (acpx's `sessions new --name s1` opens one and exits) is kept, with the
// settings it was given, so a later process resumes it and prompts; it is
// listed only once it has a conversation, so the sessions editors open
// ahead of time and never use stay out of session/list.
func TestAnEmptySessionIsKeptUnlisted(t *testing.T) {
	state, dir := t.TempDir(), tempDir(t)
	e := newEnv(t, withStore(openStore(t, state)), withDir(dir))
	e.initialize(plainInitialize)
	named := e.newSession("")
	if err := e.c.Call(testCtx(t), "session/set_config_option", map[string]any{"sessionId": named, "configId": "mode", "value": "read-only"}, nil); err != nil {
		t.Fatalf("set_config_option: %v", err)
	}
	e.newSession("") // opened ahead of time, never used
	e.c.Close()

	list := func(e *env) []string {
		t.Helper()
		var page acp.ListSessionsResponse
		if err := e.c.Call(testCtx(t), "session/list", map[string]any{}, &page); err != nil {
			t.Fatalf("session/list: %v", err)
		}
		var ids []string
		for _, s := range page.Sessions {
			ids = append(ids, s.SessionID)
		}
		return ids
	}
	e2 := newEnv(t, withStore(openStore(t, state)), withDir(dir))
	e2.initialize(plainInitialize)
	if ids := list(e2); len(ids) != 0 {
		t.Errorf("listed %v, want no session before any prompt", ids)
	}
	var resumed struct {
		Modes struct {
			CurrentModeID string `json:"currentModeId"`
		} `json:"modes"`
	}
	if err := e2.c.Call(testCtx(t), "session/resume", acpsdk.ResumeSessionRequest{SessionId: acpsdk.SessionId(named), Cwd: dir}, &resumed); err != nil {
		t.Fatalf("session/resume of the empty session from a later process: %v", err)
	}
	if resumed.Modes.CurrentModeID != "read-only" {
		t.Errorf("resumed in mode %q, want the read-only it was given", resumed.Modes.CurrentModeID)
	}
	if ids := list(e2); len(ids) != 0 {
		t.Errorf("listed %v after a resume alone, want none", ids)
	}
	if got := e2.prompt(named, "hello"); got != "end_turn" {
		t.Fatalf("prompt = %s", got)
	}
	if ids := list(e2); len(ids) != 1 || ids[0] != named {
		t.Errorf("listed %v after the prompt, want only %s", ids, named)
	}
	e2.c.Close()

	// Prompted, it stays listed in the next process.
	e3 := newEnv(t, withStore(openStore(t, state)), withDir(dir))
	e3.initialize(plainInitialize)
	if ids := list(e3); len(ids) != 1 || ids[0] != named {
		t.Errorf("listed %v in a third process, want only %s", ids, named)
	}
}
