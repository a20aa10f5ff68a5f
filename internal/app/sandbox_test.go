package app_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/internal/app"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/sandbox"
	"github.com/dsh-acp/dsh-acp/session"
)

// theSandbox is the tests' Sandbox, found once.
var theSandbox = sync.OnceValue(sandbox.New)

// approvals is a user who allows every ask once, and remembers the
// reasons asked.
type approvals struct {
	mu      sync.Mutex
	reasons []string
}

func (a *approvals) RequestApproval(_ context.Context, req pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reasons = append(a.reasons, req.Reason)
	return pipeline.ApprovalAllowedOnce, nil
}

// bashTurn runs one turn whose model makes the given bash calls (JSON
// arguments) and returns each call's result text by call id b0, b1, …
func bashTurn(t *testing.T, rt *live.Session, model *llm.Scripted) map[string]string {
	t.Helper()
	if _, err := rt.Prompt(context.Background(), []presentation.ContentBlock{presentation.Text("go")}); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, ev := range rt.Log().Events() {
		if r, ok := ev.Payload.(session.ToolResult); ok {
			out[r.CallID] = presentation.JoinText(r.Content)
		}
	}
	return out
}

// noticesOf returns what the session told the user (session.Notice).
func noticesOf(rt *live.Session) []string {
	var out []string
	for _, ev := range rt.Log().Events() {
		if n, ok := ev.Payload.(session.Notice); ok {
			out = append(out, n.Text)
		}
	}
	return out
}

// outsideDir is a directory outside every place a sandboxed command may
// change: not under a temporary directory (those are writable), but in
// the real home directory.
func outsideDir(t *testing.T) string {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skipf("no home directory for a place outside the sandbox: %v", err)
	}
	dir, err := os.MkdirTemp(home, "dsh-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func bashCalls(args ...string) *llm.Scripted {
	calls := make([]llm.ToolCall, len(args))
	for i, a := range args {
		calls[i] = llm.ToolCall{ID: fmt.Sprintf("b%d", i), Name: "bash", Arguments: a}
	}
	return llm.NewScripted(llm.Message{ToolCalls: calls}, llm.Message{Content: "done"})
}

// Under workspace-write a command runs in the sandbox even when the user
// approved it: an approved write outside the workspace and an approved
// read of a key are blocked, and the results say so; sandbox: false,
// approved, runs outside. Under full-access nothing is confined.
func TestSessionsRunCommandsInTheSandbox(t *testing.T) {
	sb := theSandbox()
	if !sb.Status().Available() {
		t.Skipf("this kernel offers no sandbox: %s", sb.Status().Summary())
	}
	dir, home := t.TempDir(), t.TempDir()
	outside := outsideDir(t)
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(home, ".ssh", "id_ed25519")
	if err := os.WriteFile(key, []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	model := bashCalls(
		fmt.Sprintf(`{"command":"echo x > %s/confined"}`, outside),
		fmt.Sprintf(`{"command":"cat %s"}`, key),
		`{"command":"echo x > inside && cat inside"}`,
		fmt.Sprintf(`{"command":"echo x > %s/escaped && echo ok","sandbox":false,"description":"write the release notes"}`, outside),
	)
	user := &approvals{}
	cfg := app.Config{Provider: model, Sandbox: app.Sandbox{Sandbox: sb, Locations: sandbox.Locations{Home: home}}}
	rt, err := app.Factory(cfg)(context.Background(), bridge.SessionConfig{ID: "s", Cwd: dir, Roots: []string{dir}, Approver: user})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	results := bashTurn(t, rt, model)
	if notices := noticesOf(rt); len(notices) != 0 && sb.Status().PID && sb.Status().Net && sb.Status().Mount {
		t.Errorf("a full sandbox gave notices: %q", notices)
	}
	if !strings.Contains(results["b0"], "[sandbox: blocked changing "+outside) {
		t.Errorf("an approved write outside: %q", results["b0"])
	}
	if _, err := os.Stat(filepath.Join(outside, "confined")); err == nil {
		t.Error("an approved command wrote outside the sandbox")
	}
	if strings.Contains(results["b1"], "PRIVATE KEY") || !strings.Contains(results["b1"], "[sandbox: blocked reading "+key) {
		t.Errorf("an approved read of a key: %q", results["b1"])
	}
	if results["b2"] != "x\n" {
		t.Errorf("a write in the workspace: %q", results["b2"])
	}
	if results["b3"] != "ok\n" {
		t.Errorf("sandbox: false: %q", results["b3"])
	}
	escalation := user.reasons[len(user.reasons)-1]
	if !strings.Contains(escalation, "outside the sandbox") || !strings.Contains(escalation, "write the release notes") {
		t.Errorf("the escalation asked %q", escalation)
	}

	// The preset in force decides: a session switched to full-access
	// after its shell was made runs its next command unconfined.
	model2 := bashCalls(fmt.Sprintf(`{"command":"echo x > %s/free && echo ok"}`, outside))
	cfg.Provider = model2
	rt2, err := app.Factory(cfg)(context.Background(), bridge.SessionConfig{ID: "s2", Cwd: dir, Roots: []string{dir}, Approver: user})
	if err != nil {
		t.Fatal(err)
	}
	defer rt2.Close()
	rt2.Apply(live.Settings{Preset: policy.FullAccess})
	if r := bashTurn(t, rt2, model2); r["b0"] != "ok\n" {
		t.Errorf("full-access: %q", r["b0"])
	}
}

// Where the kernel offers no sandbox, the user is told at the session's
// start, the model's instructions say so, and a command that writes —
// even inside the workspace — asks.
func TestSessionsWithoutASandboxAsk(t *testing.T) {
	dir := t.TempDir()
	model := bashCalls(`{"command":"echo x > inside"}`)
	user := &approvals{}
	cfg := app.Config{Provider: model, Sandbox: app.Sandbox{Sandbox: &sandbox.Sandbox{}}}
	rt, err := app.Factory(cfg)(context.Background(), bridge.SessionConfig{ID: "s", Cwd: dir, Roots: []string{dir}, Approver: user})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	bashTurn(t, rt, model)
	notices := noticesOf(rt)
	if len(notices) != 1 || !strings.Contains(notices[0], "No kernel sandbox") {
		t.Errorf("notices = %q", notices)
	}
	if len(user.reasons) != 1 {
		t.Errorf("asked %q, want one ask for the write", user.reasons)
	}
	if system := model.Requests()[0].System; !strings.Contains(system, "Sandbox: No kernel sandbox") {
		t.Errorf("the system prompt does not say it: %q", system)
	}
}
