package bridge_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/internal/corpus"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/session"
)

// openStore is a session store in a fresh state dir.
func openStore(t *testing.T, dir string) *session.Store {
	t.Helper()
	st, err := session.OpenStore(dir, session.StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// richTurn is a model script that shows every kind of card: a thought, an
// answer, a plan, a new file (a diff), a command (a terminal).
func richTurn() *llm.Scripted {
	return llm.NewScripted(
		llm.Message{Reasoning: "First a plan, then a file, then run it.", Content: "Let me start.",
			ToolCalls: []llm.ToolCall{call("t1", "todo_write", map[string]any{"todos": []map[string]any{
				{"content": "write hi.sh", "status": "in_progress"}, {"content": "run it", "status": "pending"},
			}})}},
		toolStep("w1", "write", map[string]any{"file_path": "hi.sh", "content": "echo hi\n"}),
		toolStep("b1", "bash", map[string]any{"command": "sh hi.sh; echo done"}),
		llm.Message{Content: "It printed hi, then done."},
	)
}

// liveAndReplayed runs one rich turn in a session of a stored env, closes
// the connection, loads the session in a second one, and returns the
// golden text of the live updates (the user's echo aside) and of the
// replayed ones, with the second env.
func liveAndReplayed(t *testing.T, tamper func(logPath string)) (live, replayed string, e2 *env, id string) {
	t.Helper()
	state, dir := t.TempDir(), tempDir(t)
	e := newEnv(t, withProvider(richTurn()), withPreset(policy.FullAccess), withStore(openStore(t, state)), withDir(dir))
	e.initialize(caps(true, false, false))
	id = e.newSession("")
	if got := e.prompt(id, "Write hi.sh and run it."); got != "end_turn" {
		t.Fatalf("prompt = %s", got)
	}
	live = golden(t, dir, id, e.c.Frames(), 0, func(u string) bool { return !strings.Contains(u, `"user_message_chunk"`) })
	e.c.Close()
	if tamper != nil {
		tamper(filepath.Join(state, "sessions", id+".jsonl"))
	}

	e2 = newEnv(t, withProvider(llm.NewScripted(llm.Message{Content: "Still here."})), withPreset(policy.FullAccess), withStore(openStore(t, state)), withDir(dir))
	e2.initialize(caps(true, false, false))
	from := len(e2.c.Frames())
	var setup map[string]any
	if err := e2.load(id, dir, &setup); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	replayed = golden(t, dir, id, e2.c.Frames(), from, func(u string) bool { return !strings.Contains(u, `"user_message_chunk"`) })
	return live, replayed, e2, id
}

// golden is the golden text (internal/corpus) of the session's updates
// among frames[from:] that keep accepts, up to the first response, the
// announcements of its commands aside (they follow the answer), with its
// terminal output folded (foldTerminalOutput).
func golden(t *testing.T, dir, id string, frames []acptest.Frame, from int, keep func(string) bool) string {
	t.Helper()
	var picked []corpus.Frame
	for _, f := range frames[from:] {
		if from > 0 && f.IsResponse() {
			break
		}
		if f.Method == "session/update" && keep(string(f.Raw)) && !strings.Contains(string(f.Raw), `"available_commands_update"`) {
			picked = append(picked, corpus.Frame{Line: bytes.Clone(f.Raw), Method: f.Method})
		}
	}
	return string(corpus.GoldenUpdates(corpus.Layout{Root: dir, Workspace: dir, Outside: dir + "-outside"}, id, foldTerminalOutput(t, picked)))
}

// TestLoadReplaysWhatLiveShowed: session/load sends, before its answer,
// the updates the editor saw live (its own echo of the prompt aside, which
// a replay adds), from the same events through the same mapper; then the
// session carries on with its history.
func TestLoadReplaysWhatLiveShowed(t *testing.T) {
	live, replayed, e2, id := liveAndReplayed(t, nil)
	if live != replayed {
		t.Errorf("replayed updates differ from the live ones:\n%s", corpus.FirstDifference(live, replayed))
	}
	for _, kind := range []string{"agent_thought_chunk", "plan", `"type":"diff"`, "terminal_exit", "session_info_update"} {
		if !strings.Contains(replayed, kind) {
			t.Errorf("the replay shows no %s:\n%s", kind, replayed)
		}
	}
	echo := golden(t, e2.dir, id, e2.c.Frames(), 0, func(u string) bool { return strings.Contains(u, `"user_message_chunk"`) })
	if !strings.Contains(echo, "Write hi.sh and run it.") {
		t.Errorf("the replay does not show the user's prompt: %s", echo)
	}
	if got := e2.prompt(id, "Are you there?"); got != "end_turn" {
		t.Errorf("prompt after load = %s", got)
	}
}

// TestLoadIgnoresATornLastLine: a crash in the middle of writing leaves a
// partial last line; it is ignored and nothing before it is lost.
func TestLoadIgnoresATornLastLine(t *testing.T) {
	live, replayed, e2, id := liveAndReplayed(t, func(path string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(`{"seq":9999,"kind":"assistant/chunk","data":{"te`); err != nil {
			t.Fatal(err)
		}
	})
	if live != replayed {
		t.Errorf("after a torn line, the replay differs:\n%s", corpus.FirstDifference(live, replayed))
	}
	if got := e2.prompt(id, "Are you there?"); got != "end_turn" {
		t.Errorf("prompt after load = %s", got)
	}
}

// TestResumeCarriesOnWithoutReplay: session/resume sends no update, and
// the model's next request holds the earlier turns.
func TestResumeCarriesOnWithoutReplay(t *testing.T) {
	state, dir := t.TempDir(), tempDir(t)
	e := newEnv(t, withProvider(llm.NewScripted(llm.Message{Content: "Paris."})), withStore(openStore(t, state)), withDir(dir))
	e.initialize(plainInitialize)
	id := e.newSession("")
	e.prompt(id, "Capital of France?")
	e.c.Close()

	model := llm.NewScripted(llm.Message{Content: "About two million."})
	e2 := newEnv(t, withProvider(model), withStore(openStore(t, state)), withDir(dir))
	e2.initialize(plainInitialize)
	req := acpsdk.ResumeSessionRequest{SessionId: acpsdk.SessionId(id), Cwd: dir}
	var setup map[string]any
	if err := e2.c.Call(testCtx(t), "session/resume", req, &setup); err != nil {
		t.Fatalf("session/resume: %v", err)
	}
	if us := e2.updates(id); len(us) != 0 {
		t.Errorf("session/resume sent %d updates, want none", len(us))
	}
	e2.prompt(id, "Population?")
	reqs := model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	var roles []string
	for _, m := range reqs[0].Messages {
		roles = append(roles, string(m.Role)+":"+m.Content)
	}
	want := []string{"user:Capital of France?", "assistant:Paris.", "user:Population?"}
	if strings.Join(roles, "|") != strings.Join(want, "|") {
		t.Errorf("the model saw %v, want %v", roles, want)
	}
}

// TestListPagesNewestFirst: session/list filters by cwd, orders newest
// first and pages with an opaque cursor, without repeats or gaps.
func TestListPagesNewestFirst(t *testing.T) {
	st := openStore(t, t.TempDir())
	e := newEnv(t, withStore(st))
	e.initialize(plainInitialize)
	other := tempDir(t)
	var made []string
	for range 57 {
		id := e.newSession("")
		e.prompt(id, "hello")
		made = append(made, id)
	}
	e.newSession(other)
	var all []string
	cursor := ""
	for pages := 0; ; pages++ {
		params := map[string]any{"cwd": e.dir}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page acpsdk.ListSessionsResponse
		if err := e.c.Call(testCtx(t), "session/list", params, &page); err != nil {
			t.Fatalf("session/list: %v", err)
		}
		for _, s := range page.Sessions {
			if s.Cwd != e.dir {
				t.Errorf("listed a session of %s", s.Cwd)
			}
			all = append(all, string(s.SessionId))
		}
		if page.NextCursor == nil {
			if pages != 1 {
				t.Errorf("%d pages, want 2 (50 a page)", pages+1)
			}
			break
		}
		cursor = *page.NextCursor
	}
	if len(all) != len(made) {
		t.Fatalf("listed %d sessions, want %d", len(all), len(made))
	}
	metas, err := st.List(e.dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range metas {
		if all[i] != m.ID {
			t.Fatalf("position %d: %s, want %s (newest first)", i, all[i], m.ID)
		}
		if i > 0 && m.Updated.After(metas[i-1].Updated) {
			t.Fatalf("the store's order is not newest first at %d", i)
		}
	}
	var bad *acptest.RPCError
	err = e.c.Call(testCtx(t), "session/list", map[string]any{"cursor": "not-a-cursor"}, nil)
	if !errors.As(err, &bad) || bad.Code != -32602 {
		t.Errorf("a bad cursor: %v, want -32602", err)
	}
}

// TestCloseFreesTheSessionAndKeepsItsLog: session/close stops the
// session's commands and frees it; its log stays, so it loads again, and
// another process may open it once it is closed.
func TestCloseFreesTheSessionAndKeepsItsLog(t *testing.T) {
	state, dir := t.TempDir(), tempDir(t)
	model := llm.NewScripted(toolStep("bg", "bash", map[string]any{"command": sleeper("pids"), "run_in_background": true}), llm.Message{Content: "started"})
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess), withStore(openStore(t, state)), withDir(dir))
	e.initialize(plainInitialize)
	id := e.newSession("")
	e.prompt(id, "start a job")
	pids, pgid := commandGroup(t, dir+"/pids")

	// Another process cannot open it while it is live here.
	if _, _, err := openStore(t, state).Open(id); !errors.Is(err, session.ErrLocked) {
		t.Errorf("opening a live session elsewhere: %v, want ErrLocked", err)
	}
	if err := e.c.Call(testCtx(t), "session/close", map[string]any{"sessionId": id}, nil); err != nil {
		t.Fatalf("session/close: %v", err)
	}
	eventually(t, "the session's background job to stop on session/close", func() bool {
		return len(anyAlive(pids, pgid)) == 0
	})
	p := e.startPrompt(id, "still there?")
	if _, rpcErr := p.wait(); rpcErr == nil || rpcErr.Code != -32602 {
		t.Errorf("a prompt to a closed session: %v, want -32602", rpcErr)
	}
	j, loaded, err := openStore(t, state).Open(id)
	if err != nil {
		t.Fatalf("opening the closed session elsewhere: %v", err)
	}
	defer j.Close()
	if len(loaded.Events) == 0 {
		t.Error("the closed session's log is empty")
	}
}

// TestDeleteRemovesTheSession: session/delete closes and removes it.
func TestDeleteRemovesTheSession(t *testing.T) {
	st := openStore(t, t.TempDir())
	e := newEnv(t, withStore(st))
	e.initialize(plainInitialize)
	id := e.newSession("")
	if err := e.c.Call(testCtx(t), "session/delete", map[string]any{"sessionId": id}, nil); err != nil {
		t.Fatalf("session/delete: %v", err)
	}
	if metas, _ := st.List(""); len(metas) != 0 {
		t.Errorf("after delete the store lists %d sessions", len(metas))
	}
	var bad *acptest.RPCError
	err := e.load(id, e.dir, nil)
	if !errors.As(err, &bad) || bad.Code != -32002 {
		t.Errorf("loading a deleted session: %v, want -32002", err)
	}
}

// TestNoStoreOffersNoStoredSessions: without a store the methods that
// need one are not advertised and answer method-not-found.
func TestNoStoreOffersNoStoredSessions(t *testing.T) {
	e := newEnv(t)
	resp := e.initialize(plainInitialize)
	agentCaps, _ := resp["agentCapabilities"].(map[string]any)
	if v, _ := agentCaps["loadSession"].(bool); v {
		t.Error("loadSession advertised without a store")
	}
	var bad *acptest.RPCError
	err := e.c.Call(testCtx(t), "session/list", map[string]any{}, nil)
	if !errors.As(err, &bad) || bad.Code != -32601 {
		t.Errorf("session/list without a store: %v, want -32601", err)
	}
}

// configOption is one option of a session setup answer.
type configOption struct {
	ID           string `json:"id"`
	Category     string `json:"category"`
	CurrentValue string `json:"currentValue"`
	Options      []struct {
		Value string `json:"value"`
	} `json:"options"`
}

func optionValue(options []configOption, id string) (string, bool) {
	for _, o := range options {
		if o.ID == id {
			return o.CurrentValue, true
		}
	}
	return "", false
}

// TestConfigOptions: the model, permission preset and reasoning effort are
// config options; each change answers the full list, is told to clients
// of the legacy modes, applies from the next request and survives a load.
func TestConfigOptions(t *testing.T) {
	models := []bridge.ModelChoice{
		{ID: "fast", Name: "Fast"},
		{ID: "deep", Name: "Deep", Efforts: []string{"high", "max"}, DefaultEffort: "high"},
	}
	state, dir := t.TempDir(), tempDir(t)
	e := newEnv(t, withStore(openStore(t, state)), withDir(dir), withModels(models...))
	e.initialize(plainInitialize)
	var created struct {
		SessionID     string         `json:"sessionId"`
		ConfigOptions []configOption `json:"configOptions"`
		Modes         struct {
			CurrentModeID string `json:"currentModeId"`
		} `json:"modes"`
	}
	if err := e.c.Call(testCtx(t), "session/new", acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}}, &created); err != nil {
		t.Fatalf("session/new: %v", err)
	}
	id := created.SessionID
	if v, _ := optionValue(created.ConfigOptions, "mode"); v != "workspace-write" || created.Modes.CurrentModeID != "workspace-write" {
		t.Errorf("mode = %q / %q, want workspace-write", v, created.Modes.CurrentModeID)
	}
	if _, ok := optionValue(created.ConfigOptions, "reasoning_effort"); ok {
		t.Error("a reasoning effort is offered for a model that takes none")
	}

	set := func(option, value string) ([]configOption, *acptest.RPCError) {
		var resp struct {
			ConfigOptions []configOption `json:"configOptions"`
		}
		err := e.c.Call(testCtx(t), "session/set_config_option", map[string]any{"sessionId": id, "configId": option, "value": value}, &resp)
		var rpcErr *acptest.RPCError
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		if err != nil {
			t.Fatalf("set_config_option: %v", err)
		}
		return resp.ConfigOptions, nil
	}
	tests := []struct {
		option, value string
		want          map[string]string // option → value after; nil: refused
	}{
		{"model", "deep", map[string]string{"model": "deep", "reasoning_effort": "high", "mode": "workspace-write"}},
		{"reasoning_effort", "max", map[string]string{"model": "deep", "reasoning_effort": "max"}},
		{"reasoning_effort", "extreme", nil},
		{"mode", "read-only", map[string]string{"mode": "read-only", "model": "deep"}},
		{"mode", "yolo", nil},
		{"model", "nonexistent", nil},
		{"temperature", "1", nil},
	}
	for _, tt := range tests {
		options, rpcErr := set(tt.option, tt.value)
		if tt.want == nil {
			if rpcErr == nil || rpcErr.Code != -32602 {
				t.Errorf("%s=%s: %v, want -32602", tt.option, tt.value, rpcErr)
			}
			continue
		}
		if rpcErr != nil {
			t.Fatalf("%s=%s: %v", tt.option, tt.value, rpcErr)
		}
		for k, v := range tt.want {
			if got, _ := optionValue(options, k); got != v {
				t.Errorf("after %s=%s: %s = %q, want %q", tt.option, tt.value, k, got, v)
			}
		}
	}
	e.waitUpdate(id, "current_mode_update for read-only", func(u update) bool {
		return u.Kind == "current_mode_update" && strings.Contains(string(u.Raw), "read-only")
	})
	// The legacy way: session/set_mode, told as both updates.
	if err := e.c.Call(testCtx(t), "session/set_mode", map[string]any{"sessionId": id, "modeId": "full-access"}, nil); err != nil {
		t.Fatalf("set_mode: %v", err)
	}
	e.waitUpdate(id, "config_option_update after set_mode", func(u update) bool {
		return u.Kind == "config_option_update" && strings.Contains(string(u.Raw), `"currentValue":"full-access"`)
	})
	// Options set right after session/new (as Zed does with its defaults)
	// do not list a session nobody prompted (it is kept empty).
	other := e.newSession("")
	if err := e.c.Call(testCtx(t), "session/set_mode", map[string]any{"sessionId": other, "modeId": "read-only"}, nil); err != nil {
		t.Fatalf("set_mode: %v", err)
	}
	if e.prompt(id, "hello") != "end_turn" {
		t.Fatal("prompt failed")
	}
	e.c.Close()
	if metas, _ := openStore(t, state).List(""); len(metas) != 1 || metas[0].ID != id {
		t.Errorf("stored sessions = %+v, want only the prompted one", metas)
	}

	// The settings survive a load.
	e2 := newEnv(t, withStore(openStore(t, state)), withDir(dir), withModels(models...))
	e2.initialize(plainInitialize)
	var loaded struct {
		ConfigOptions []configOption `json:"configOptions"`
	}
	if err := e2.load(id, dir, &loaded); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	for k, v := range map[string]string{"model": "deep", "reasoning_effort": "max", "mode": "full-access"} {
		if got, _ := optionValue(loaded.ConfigOptions, k); got != v {
			t.Errorf("after load: %s = %q, want %q", k, got, v)
		}
	}
}

// TestSignIn: without a key session/new answers auth-required (-32000);
// a client that runs terminals is offered the login command.
func TestSignIn(t *testing.T) {
	var signedIn bool
	a := bridge.Auth{
		Check: func(model string) error {
			if !signedIn {
				return errors.New("no API key for deepseek: run `dsh-acp login`")
			}
			return nil
		},
		Command: "/usr/bin/dsh-acp", LoginArgs: []string{"login"},
		Logout: func() error { signedIn = false; return nil },
	}
	e := newEnv(t, withAuth(a))
	resp := e.initialize(zedInitialize)
	raw, _ := json.Marshal(resp["authMethods"])
	if !strings.Contains(string(raw), `"type":"terminal"`) || !strings.Contains(string(raw), `"args":["login"]`) {
		t.Errorf("authMethods = %s, want the terminal login", raw)
	}
	var bad *acptest.RPCError
	err := e.c.Call(testCtx(t), "session/new", acpsdk.NewSessionRequest{Cwd: e.dir, McpServers: []acpsdk.McpServer{}}, nil)
	if !errors.As(err, &bad) || bad.Code != -32000 || !strings.Contains(bad.Message, "dsh-acp login") {
		t.Fatalf("session/new without a key: %v, want -32000 naming the login", err)
	}
	signedIn = true
	e.newSession("")
	if err := e.c.Call(testCtx(t), "logout", map[string]any{}, nil); err != nil {
		t.Fatalf("logout: %v", err)
	}
	err = e.c.Call(testCtx(t), "session/new", acpsdk.NewSessionRequest{Cwd: e.dir, McpServers: []acpsdk.McpServer{}}, nil)
	if !errors.As(err, &bad) || bad.Code != -32000 {
		t.Errorf("session/new after logout: %v, want -32000", err)
	}

	plain := newEnv(t, withAuth(a))
	resp = plain.initialize(plainInitialize)
	if methods, _ := resp["authMethods"].([]any); len(methods) != 0 {
		t.Errorf("a client that runs no terminal is offered %v", methods)
	}
}
