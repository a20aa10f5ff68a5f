package bridge_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/internal/corpus"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// taskTurn is a parent handing a general child a task that edits a file
// and runs a command, then answering.
func taskTurn() llm.Provider {
	return llm.NewScripted(
		toolStep("t1", "task", map[string]any{"description": "fix the greeting", "prompt": "change hi to hello in f.txt", "subagent_type": "general"}),
		toolStep("c1", "edit", map[string]any{"file_path": "f.txt", "old_string": "hi", "new_string": "hello"}),
		toolStep("c2", "bash", map[string]any{"command": "echo checked"}),
		llm.Message{Content: "f.txt:1 now says hello."},
		llm.Message{Content: "Done."},
	)
}

// TestChildrenDoNotAskTheUser: the session offers ask_user (the editor
// can ask), but a general child, offered every other tool of its parent
// but task, is not: it reports to its parent, which asks when it must.
func TestChildrenDoNotAskTheUser(t *testing.T) {
	model := llm.NewScripted(
		toolStep("t1", "task", map[string]any{"description": "look", "prompt": "look around", "subagent_type": "general"}),
		llm.Message{Content: "Nothing to report."},
		llm.Message{Content: "Done."},
	)
	e := newEnv(t, withProvider(model))
	e.initialize(plainInitialize)
	if got := e.prompt(e.newSession(""), "go"); got != "end_turn" {
		t.Fatalf("prompt = %s", got)
	}
	offered := func(r llm.Request) []string {
		var names []string
		for _, tool := range r.Tools {
			names = append(names, tool.Name)
		}
		return names
	}
	requests := model.Requests()
	if len(requests) < 2 {
		t.Fatalf("%d model requests, want the parent's and the child's", len(requests))
	}
	if parent := offered(requests[0]); !slices.Contains(parent, "ask_user") {
		t.Errorf("the parent is offered %v, want ask_user among them", parent)
	}
	if child := offered(requests[1]); slices.Contains(child, "ask_user") || !slices.Contains(child, "edit") {
		t.Errorf("the general child is offered %v, want edit and no ask_user", child)
	}
}

// TestTaskIsOneCallShowingItsChild: a client without the subagents
// capability sees a task as one call named task, whose content lists
// each call of the child with its title and ends with its answer; the
// child's edit is still a diff card and its command a terminal, under
// ids of their own; a replay shows the same, and the child is no session
// of the list.
func TestTaskIsOneCallShowingItsChild(t *testing.T) {
	state, dir := t.TempDir(), tempDir(t)
	e := newEnv(t, withProvider(taskTurn()), withPreset(policy.FullAccess), withStore(openStore(t, state)), withDir(dir))
	writeFile(t, dir+"/f.txt", "hi\n")
	e.initialize(caps(true, false, false))
	id := e.newSession("")
	if got := e.prompt(id, "Fix the greeting."); got != "end_turn" {
		t.Fatalf("prompt = %s", got)
	}
	if got := readFile(t, dir+"/f.txt"); got != "hello\n" {
		t.Errorf("f.txt = %q", got)
	}
	updates := e.updates(id)
	task := forCall(updates, "t1")
	if len(task) < 3 || task[0].Kind != "tool_call" || task[0].Title == nil || *task[0].Title != "general: fix the greeting" || task[0].ToolKind != "other" {
		data, _ := json.Marshal(task)
		t.Fatalf("the task's updates %s", data)
	}
	last := task[len(task)-1]
	if last.Status != "completed" {
		t.Errorf("the task ended %q", last.Status)
	}
	var content []struct {
		Content struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(last.Content, &content); err != nil || len(content) != 2 {
		t.Fatalf("the task's final content %s: %v", last.Content, err)
	}
	if lines := content[0].Content.Text; !strings.Contains(lines, "- Edit f.txt") || !strings.Contains(lines, "- echo checked") {
		t.Errorf("the task's progress %q, want a line per child call", lines)
	}
	if content[1].Content.Text != "f.txt:1 now says hello." {
		t.Errorf("the task's answer %q", content[1].Content.Text)
	}
	var diff, terminal bool
	for _, u := range updates {
		if u.Kind != "tool_call" || !strings.HasPrefix(u.ToolCallID, "sub_") {
			continue
		}
		switch {
		case strings.HasSuffix(u.ToolCallID, "/c1") && strings.Contains(string(u.Content), `"type":"diff"`):
			diff = true
		case strings.HasSuffix(u.ToolCallID, "/c2") && u.ToolKind == "execute":
			terminal = true
		}
	}
	if !diff || !terminal {
		t.Errorf("the child's edit shown as a diff card: %v; its command as a terminal: %v", diff, terminal)
	}
	// The task's progress updates are whole-content snapshots, which the
	// outbox merges as they queue up (differently live and replayed):
	// the final content says what they said.
	keep := func(u string) bool {
		return !strings.Contains(u, `"user_message_chunk"`) && !strings.Contains(u, `"toolCallId":"t1","content"`)
	}
	live := golden(t, dir, id, e.c.Frames(), 0, keep)
	e.c.Close()

	e2 := newEnv(t, withProvider(llm.NewScripted()), withPreset(policy.FullAccess), withStore(openStore(t, state)), withDir(dir))
	e2.initialize(caps(true, false, false))
	from := len(e2.c.Frames())
	var setup map[string]any
	if err := e2.load(id, dir, &setup); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	replayed := golden(t, dir, id, e2.c.Frames(), from, keep)
	if live != replayed {
		t.Errorf("replayed updates differ from the live ones:\n%s", corpus.FirstDifference(live, replayed))
	}
	var page acpsdk.ListSessionsResponse
	if err := e2.c.Call(testCtx(t), "session/list", map[string]any{}, &page); err != nil {
		t.Fatalf("session/list: %v", err)
	}
	if len(page.Sessions) != 1 || string(page.Sessions[0].SessionId) != id {
		t.Errorf("session/list = %+v, want only the parent %s", page.Sessions, id)
	}
}

// TestChildAskIsAttributed: a child's command asks the editor with the
// card the child's call is shown with, its title naming the child.
func TestChildAskIsAttributed(t *testing.T) {
	e := newEnv(t, withProvider(llm.NewScripted(
		toolStep("t1", "task", map[string]any{"description": "fetch it", "prompt": "fetch"}),
		toolStep("c1", "bash", map[string]any{"command": "curl -s example.com"}),
		llm.Message{Content: "could not"},
		llm.Message{Content: "Done."},
	)), withPreset(policy.WorkspaceWrite))
	asked := rejectEveryAsk(e)
	e.initialize(plainInitialize)
	s := e.newSession("")
	if got := e.prompt(s, "go"); got != "end_turn" {
		t.Fatalf("prompt = %s", got)
	}
	tc := asked().ToolCall
	want := `[general subagent: fetch it] curl -s example.com — "curl" is not read-only and no rule allows it`
	if tc.Title == nil || *tc.Title != want {
		t.Errorf("the request's title %v, want %q", tc.Title, want)
	}
	if id := string(tc.ToolCallId); !strings.HasPrefix(id, "sub_") || !strings.HasSuffix(id, "/c1") {
		t.Errorf("the request's call id %q, want the child's card's", id)
	}
	if len(forCall(e.updates(s), string(tc.ToolCallId))) == 0 {
		t.Errorf("no card has the request's call id %s", tc.ToolCallId)
	}
}

// subagentsInitialize advertises the unstable subagents capability and
// Zed's terminal convention.
const subagentsInitialize = `{"protocolVersion":1,"clientCapabilities":{"terminal":true,"subagents":{},"_meta":{"terminal_output":true}}}`

// sessionUpdates returns the session/update params of frames[from:], in
// order, with the session each went to.
func sessionUpdates(t *testing.T, e *env, from int) []struct {
	Session string
	Update  map[string]any
} {
	t.Helper()
	var out []struct {
		Session string
		Update  map[string]any
	}
	for _, f := range e.c.Frames()[from:] {
		if f.Method != "session/update" {
			continue
		}
		var p struct {
			SessionID string         `json:"sessionId"`
			Update    map[string]any `json:"update"`
		}
		if err := json.Unmarshal(f.Params, &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, struct {
			Session string
			Update  map[string]any
		}{p.SessionID, p.Update})
	}
	return out
}

// TestTaskIsAChildSession: a client that advertises subagents is told of
// the child with a subagent_update on the parent (the task's
// description, cancellable, running) before any of the child's updates,
// which go under the child's session id — its prompt, its calls with
// their diff and terminal, its answer — and of its end (idle,
// end_turn); the task's card is linked to the child and lists nothing;
// a replay shows the same.
func TestTaskIsAChildSession(t *testing.T) {
	state, dir := t.TempDir(), tempDir(t)
	e := newEnv(t, withProvider(taskTurn()), withPreset(policy.FullAccess), withStore(openStore(t, state)), withDir(dir))
	writeFile(t, dir+"/f.txt", "hi\n")
	e.initialize(subagentsInitialize)
	id := e.newSession("")
	if got := e.prompt(id, "Fix the greeting."); got != "end_turn" {
		t.Fatalf("prompt = %s", got)
	}
	updates := sessionUpdates(t, e, 0)
	child := ""
	var kinds []string
	for _, u := range updates {
		kind := u.Update["sessionUpdate"].(string)
		switch {
		case u.Session == id && kind == "subagent_update" && child == "":
			child = u.Update["sessionId"].(string)
			if u.Update["title"] != "fix the greeting" || u.Update["capabilities"] == nil ||
				u.Update["state"].(map[string]any)["state"] != "running" {
				t.Errorf("the announcement %v", u.Update)
			}
		case u.Session != id:
			if child == "" || u.Session != child {
				t.Fatalf("an update for session %s before any announcement of it: %v", u.Session, u.Update)
			}
			kinds = append(kinds, kind)
		}
	}
	want := []string{"user_message_chunk", "tool_call", "tool_call_update", "tool_call_update", "tool_call", "tool_call_update"}
	if len(kinds) < len(want) || strings.Join(kinds[:2], ",") != "user_message_chunk,tool_call" || !slicesContain(kinds, "agent_message_chunk") {
		t.Errorf("the child's updates %v", kinds)
	}
	last := updates[len(updates)-1]
	for _, u := range updates {
		if u.Session == id && u.Update["sessionUpdate"] == "subagent_update" && u.Update["state"].(map[string]any)["state"] == "idle" {
			last = u
		}
	}
	if st := last.Update["state"].(map[string]any); st["state"] != "idle" || st["stopReason"] != "end_turn" {
		t.Errorf("the child's end %v", last.Update)
	}
	task := forCall(e.updates(id), "t1")
	linked := false
	for _, u := range task {
		if strings.Contains(string(u.Content), "- Edit") {
			t.Errorf("the task's card lists the child's calls: %s", u.Content)
		}
	}
	for _, u := range updates {
		if u.Session == id && u.Update["toolCallId"] == "t1" {
			if meta, ok := u.Update["_meta"].(map[string]any); ok && meta["subagent_session_id"] == child {
				linked = true
			}
		}
	}
	if !linked {
		t.Errorf("the task's card is not linked to the child %s", child)
	}
	// The user's own prompt is echoed only by the replay; the child's
	// prompt is shown both times.
	keep := func(u string) bool {
		return !strings.Contains(u, `"user_message_chunk"`) || !strings.Contains(u, `"params":{"sessionId":"`+id+`"`)
	}
	live := golden(t, dir, id, e.c.Frames(), 0, keep)
	e.c.Close()

	e2 := newEnv(t, withProvider(llm.NewScripted()), withPreset(policy.FullAccess), withStore(openStore(t, state)), withDir(dir))
	e2.initialize(subagentsInitialize)
	from := len(e2.c.Frames())
	var setup map[string]any
	if err := e2.load(id, dir, &setup); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	if replayed := golden(t, dir, id, e2.c.Frames(), from, keep); live != replayed {
		t.Errorf("replayed updates differ from the live ones:\n%s", corpus.FirstDifference(live, replayed))
	}
}

func slicesContain(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestCancelAChildSession: session/cancel naming a child stops that
// child alone — its ask is withdrawn, its task fails saying the user
// stopped it — and the parent's turn goes on to its end.
func TestCancelAChildSession(t *testing.T) {
	e := newEnv(t, withProvider(llm.NewScripted(
		toolStep("t1", "task", map[string]any{"description": "fetch it", "prompt": "fetch"}),
		toolStep("c1", "bash", map[string]any{"command": "curl -s example.com"}),
		llm.Message{Content: "The child was stopped."},
	)), withPreset(policy.WorkspaceWrite))
	type asked struct{ session, call string }
	asks := make(chan asked, 1)
	e.c.Handle("session/request_permission", func(ctx context.Context, params json.RawMessage) (any, error) {
		var p acpsdk.RequestPermissionRequest
		_ = json.Unmarshal(params, &p)
		asks <- asked{string(p.SessionId), string(p.ToolCall.ToolCallId)}
		<-ctx.Done()
		return selected("allow-once"), nil
	})
	e.initialize(subagentsInitialize)
	s := e.newSession("")
	p := e.startPrompt(s, "go")
	var a asked
	select {
	case a = <-asks:
	case <-testCtx(t).Done():
		t.Fatal("the child never asked")
	}
	if a.session == s || !strings.HasPrefix(a.session, "sub_") || a.call != "c1" {
		t.Errorf("the child asked in session %s about %s, want its own session and call", a.session, a.call)
	}
	if err := e.c.Notify("session/cancel", map[string]any{"sessionId": a.session}); err != nil {
		t.Fatal(err)
	}
	if got := p.stop(); got != "end_turn" {
		t.Errorf("the parent's turn ended %s, want end_turn (only the child was stopped)", got)
	}
	task := forCall(e.updates(s), "t1")
	if finalStatus(task) != "failed" || !strings.Contains(string(task[len(task)-1].Content), "the user stopped the subagent") {
		data, _ := json.Marshal(task)
		t.Errorf("the task's updates %s, want it failed by the stop", data)
	}
	if agentText(e.updates(s)) != "The child was stopped." {
		t.Errorf("the parent's text %q", agentText(e.updates(s)))
	}
}

// TestCancelledAnswerInAChildSession: a client that shows children
// answers a child's permission request "cancelled" without sending
// session/cancel: that child stops, the parent's turn goes on.
func TestCancelledAnswerInAChildSession(t *testing.T) {
	e := newEnv(t, withProvider(llm.NewScripted(
		toolStep("t1", "task", map[string]any{"description": "fetch it", "prompt": "fetch"}),
		toolStep("c1", "bash", map[string]any{"command": "curl -s example.com"}),
		llm.Message{Content: "The child was stopped."},
	)), withPreset(policy.WorkspaceWrite))
	e.c.Handle("session/request_permission", func(context.Context, json.RawMessage) (any, error) {
		return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
	})
	e.initialize(subagentsInitialize)
	s := e.newSession("")
	if got := e.startPrompt(s, "go").stop(); got != "end_turn" {
		t.Errorf("the parent's turn ended %s, want end_turn (only the child was stopped)", got)
	}
	if task := forCall(e.updates(s), "t1"); finalStatus(task) != "failed" {
		t.Errorf("the task ended %s, want failed by the stop", finalStatus(task))
	}
	if agentText(e.updates(s)) != "The child was stopped." {
		t.Errorf("the parent's text %q", agentText(e.updates(s)))
	}
}

// TestCancelDuringAChildsCommand: session/cancel on the parent while its
// general child runs a command ends the turn cancelled, kills the
// command's whole process group, and fails the task and the child's call.
func TestCancelDuringAChildsCommand(t *testing.T) {
	model := llm.NewScripted(
		toolStep("t1", "task", map[string]any{"description": "sleep", "prompt": "sleep"}),
		toolStep("c_sleep", "bash", map[string]any{"command": sleeper("pids")}),
		llm.Message{Content: "ok"},
	)
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess))
	e.initialize(zedInitialize)
	newEditor(e.c, map[string]string{})
	s := e.newSession("")
	p := e.startPrompt(s, "sleep")
	pids, pgid := commandGroup(t, e.dir+"/pids")
	e.cancel(s)
	if got := p.stop(); got != "cancelled" {
		t.Errorf("stopReason = %s, want cancelled", got)
	}
	eventually(t, "the child's command's process group to die after session/cancel", func() bool {
		return len(anyAlive(pids, pgid)) == 0
	})
	if st := finalStatus(forCall(e.updates(s), "t1")); st != "failed" {
		t.Errorf("the task ended %q, want failed", st)
	}
	var child []update
	for _, u := range e.updates(s) {
		if strings.HasSuffix(u.ToolCallID, "/c_sleep") {
			child = append(child, u)
		}
	}
	if st := finalStatus(child); st != "failed" {
		t.Errorf("the child's command ended %q, want failed", st)
	}
}

// TestAlwaysAllowReachesChildren: "always allow" answered to a child's
// command is a rule of the project like any other: the next child's same
// command runs without asking, and so does the parent's own.
func TestAlwaysAllowReachesChildren(t *testing.T) {
	command := map[string]any{"command": approvalCommand, "description": "Leave a marker"}
	e := newEnv(t, withProvider(llm.NewScripted(
		toolStep("t1", "task", map[string]any{"description": "first", "prompt": "one"}),
		toolStep("c1", "bash", command),
		llm.Message{Content: "marked"},
		toolStep("t2", "task", map[string]any{"description": "second", "prompt": "two"}),
		toolStep("c2", "bash", command),
		llm.Message{Content: "marked again"},
		toolStep("c3", "bash", command),
		llm.Message{Content: "Done."},
	)))
	var asked []string
	e.c.Handle("session/request_permission", func(_ context.Context, params json.RawMessage) (any, error) {
		var p acpsdk.RequestPermissionRequest
		_ = json.Unmarshal(params, &p)
		asked = append(asked, string(p.ToolCall.ToolCallId))
		return selected("allow-always"), nil
	})
	e.initialize(plainInitialize)
	s := e.newSession("")
	if got := e.prompt(s, "go"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}
	if len(asked) != 1 || !strings.HasSuffix(asked[0], "/c1") {
		t.Errorf("asked about %v, want only the first child's c1", asked)
	}
	for _, id := range []string{"t1", "t2", "c3"} {
		if st := finalStatus(forCall(e.updates(s), id)); st != "completed" {
			t.Errorf("%s ended %q", id, st)
		}
	}
}

// TestCancelDuringAChildsAsk: session/cancel on the parent while its
// child's command waits for the user's answer withdraws the request, ends
// the turn cancelled, fails the task and runs nothing, and the session
// serves the next prompt.
func TestCancelDuringAChildsAsk(t *testing.T) {
	model := llm.NewScripted(
		toolStep("t1", "task", map[string]any{"description": "mark", "prompt": "mark"}),
		toolStep("c1", "bash", map[string]any{"command": "touch marker"}),
		llm.Message{Content: "fine"},
	)
	e := newEnv(t, withProvider(model))
	asked := make(chan struct{}, 1)
	release := make(chan struct{})
	e.c.Handle("session/request_permission", func(ctx context.Context, _ json.RawMessage) (any, error) {
		asked <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return selected("allow-once"), nil
	})
	e.initialize(plainInitialize)
	s := e.newSession("")
	p := e.startPrompt(s, "mark")
	<-asked
	e.cancel(s)
	if got := p.stop(); got != "cancelled" {
		t.Errorf("stopReason = %s, want cancelled", got)
	}
	e.waitFrame("$/cancel_request", acptest.MethodFrame("$/cancel_request"))
	close(release)
	if st := finalStatus(forCall(e.updates(s), "t1")); st != "failed" {
		t.Errorf("the task ended %q, want failed", st)
	}
	if got := e.prompt(s, "next"); got != "end_turn" {
		t.Errorf("the next prompt = %s", got)
	}
	if readFile(t, e.dir+"/marker") != "<absent>" {
		t.Errorf("the child's command ran on a withdrawn permission request")
	}
}

// TestCloseDuringAChildsAsk: session/close while a child's command waits
// for the user's answer withdraws the request and answers the prompt
// cancelled; nothing runs, and nothing is left waiting.
func TestCloseDuringAChildsAsk(t *testing.T) {
	model := llm.NewScripted(
		toolStep("t1", "task", map[string]any{"description": "mark", "prompt": "mark"}),
		toolStep("c1", "bash", map[string]any{"command": "touch marker"}),
	)
	e := newEnv(t, withProvider(model))
	asked := make(chan struct{}, 1)
	e.c.Handle("session/request_permission", func(ctx context.Context, _ json.RawMessage) (any, error) {
		asked <- struct{}{}
		<-ctx.Done()
		return selected("allow-once"), nil
	})
	e.initialize(plainInitialize)
	s := e.newSession("")
	p := e.startPrompt(s, "mark")
	<-asked
	if err := e.c.Call(testCtx(t), "session/close", map[string]any{"sessionId": s}, nil); err != nil {
		t.Fatalf("session/close: %v", err)
	}
	if got := p.stop(); got != "cancelled" {
		t.Errorf("stopReason = %s, want cancelled", got)
	}
	e.waitFrame("$/cancel_request", acptest.MethodFrame("$/cancel_request"))
	if readFile(t, e.dir+"/marker") != "<absent>" {
		t.Errorf("the child's command ran after the session closed")
	}
}
