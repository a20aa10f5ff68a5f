package bridge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// approvalCommand is long on purpose: the prompt must show all of it.
const approvalCommand = `touch marker && printf '%s\n' "a command long enough that an editor might be tempted to shorten it" > /dev/null`

// TestApprovalsB159B162 asks for a bash call under the default preset and
// answers the permission request every way a client can (§4.15, issue 4
// deliverable 6). Allow options run the command; anything else denies it
// (the marker file stays absent) and fails the call; the server keeps
// serving. A cancelled outcome (B161) cancels the turn: see
// TestCancelledPermissionOutcomeEndsTheTurn.
func TestApprovalsB159B162(t *testing.T) {
	tests := []struct {
		name   string
		answer func(context.Context, json.RawMessage) (any, error)
		runs   bool
		// reason is in the failed call's content: what happened, never
		// "the user rejected" (acpx --deny-all answers without asking).
		reason string
	}{
		{name: "B159 allow-once runs it", answer: choose("allow-once"), runs: true},
		{name: "allow-always runs it (and remembers it: TestAlwaysAllowIsRememberedAcrossProcesses)", answer: choose("allow-always"), runs: true},
		{name: "B160 reject-once denies it", answer: choose("reject-once"), reason: `did not run: the permission request was answered "reject"`},
		{name: "reject-always denies it", answer: choose("reject-always"), reason: `did not run: the permission request was answered "reject"`},
		{name: "B162 an unknown optionId denies it", answer: choose("allow-twice"), reason: `did not run: the permission request was answered "reject"`},
		{name: "garbage fails closed", answer: raw(`"garbage"`)},
		{name: "a null answer fails closed", answer: raw(`null`)},
		{name: "an unknown outcome fails closed", answer: raw(`{"outcome":{"outcome":"approved"}}`)},
		{name: "selected without an optionId fails closed", answer: raw(`{"outcome":{"outcome":"selected"}}`)},
		{name: "an error answer fails closed", answer: func(context.Context, json.RawMessage) (any, error) {
			return nil, &acptest.RPCError{Code: -32603, Message: "the dialog crashed"}
		}},
		{name: "a client without a handler (-32601) fails closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, withProvider(replyOnce(call("c_bash", "bash", map[string]any{"command": approvalCommand, "description": "Leave a marker"}))))
			var asked atomic.Int32
			if tt.answer != nil {
				e.c.Handle("session/request_permission", func(ctx context.Context, params json.RawMessage) (any, error) {
					asked.Add(1)
					return tt.answer(ctx, params)
				})
			}
			e.initialize(plainInitialize)
			s := e.newSession("")
			if got := e.prompt(s, "leave a marker"); got != "end_turn" {
				t.Fatalf("stopReason = %s", got)
			}
			marker := e.dir + "/marker"
			if _, err := os.Stat(marker); (err == nil) != tt.runs {
				t.Errorf("marker exists = %t, want %t", err == nil, tt.runs)
			}
			if tt.answer != nil && asked.Load() != 1 {
				t.Errorf("asked %d times, want once", asked.Load())
			}
			checkPermissionRequest(t, e, s)
			c := forCall(e.updates(s), "c_bash")
			if tt.runs {
				wantStatuses(t, c, "pending", "in_progress", "completed")
			} else {
				wantStatuses(t, c, "pending", "failed")
				text := c[len(c)-1].items()
				if len(text) != 1 || !strings.Contains(text[0].Content.Text, tt.reason) {
					t.Errorf("failure content = %+v, want it to mention %q", text, tt.reason)
				}
			}
			// The server keeps serving the session.
			if got := e.prompt(s, "again"); got != "end_turn" {
				t.Errorf("the next prompt = %s", got)
			}
		})
	}
}

// checkPermissionRequest checks the first permission request of the test:
// what it shows (B159: the command, why it asks, the description) and
// that its tool_call came first.
func checkPermissionRequest(t *testing.T, e *env, s string) {
	t.Helper()
	frames := e.c.Frames()
	callAt, askAt := -1, -1
	for i, f := range frames {
		if u, ok := decodeUpdate(f); ok && f.Method == "session/update" && u.Kind == "tool_call" && u.ToolCallID == "c_bash" && callAt < 0 {
			callAt = i
		}
		if f.Method == "session/request_permission" && askAt < 0 {
			askAt = i
		}
	}
	if askAt < 0 {
		t.Fatalf("no session/request_permission")
	}
	if callAt < 0 || callAt > askAt {
		t.Errorf("the tool_call (frame %d) does not precede the permission request (frame %d)", callAt, askAt)
	}
	var req struct {
		SessionID string `json:"sessionId"`
		ToolCall  struct {
			ToolCallID string          `json:"toolCallId"`
			Title      string          `json:"title"`
			Kind       string          `json:"kind"`
			Status     *string         `json:"status"`
			Content    json.RawMessage `json:"content"`
		} `json:"toolCall"`
		Options []acpsdk.PermissionOption `json:"options"`
	}
	if err := json.Unmarshal(frames[askAt].Params, &req); err != nil {
		t.Fatal(err)
	}
	tc := req.ToolCall
	title := approvalCommand + ` — "touch" is not read-only and no rule allows it`
	if req.SessionID != s || tc.ToolCallID != "c_bash" || tc.Title != title || tc.Kind != "execute" {
		t.Errorf("permission request = %s; want session %s, call c_bash, the full command and why it asks as title, kind execute", frames[askAt].Params, s)
	}
	if !strings.Contains(string(tc.Content), "Leave a marker") {
		t.Errorf("the request's content %s does not show the description", tc.Content)
	}
	var got []string
	for _, o := range req.Options {
		got = append(got, string(o.OptionId)+"="+string(o.Kind))
	}
	want := "allow-once=allow_once allow-always=allow_always reject-once=reject_once reject-always=reject_always"
	if strings.Join(got, " ") != want {
		t.Errorf("options = %s, want %s", strings.Join(got, " "), want)
	}
}

// TestApprovalShowsFileCalls: an ask for a write outside the workspace
// shows the diff and the location being approved.
func TestApprovalShowsFileCalls(t *testing.T) {
	outside := tempDir(t)
	e := newEnv(t, withProvider(replyOnce(call("c_w", "write", map[string]any{"file_path": outside + "/x.txt", "content": "hello\n"}))))
	var req acpsdk.RequestPermissionRequest
	var asked atomic.Int32
	e.c.HandlePermission(func(r acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
		if asked.Add(1) == 1 {
			req = r
		}
		return selected("reject-once")
	})
	e.initialize(plainInitialize)
	s := e.newSession("")
	e.prompt(s, "write outside")
	if asked.Load() != 1 {
		t.Fatalf("asked %d times", asked.Load())
	}
	tc := req.ToolCall
	if tc.Kind == nil || *tc.Kind != acpsdk.ToolKindEdit || len(tc.Locations) != 1 || tc.Locations[0].Path != outside+"/x.txt" ||
		len(tc.Content) != 1 || tc.Content[0].Diff == nil || tc.Content[0].Diff.NewText != "hello\n" {
		data, _ := json.Marshal(tc)
		t.Errorf("toolCall = %s, want the edit with its diff and location", data)
	}
	if readFile(t, outside+"/x.txt") != "<absent>" {
		t.Errorf("a rejected write reached the disk")
	}
}

func choose(id string) func(context.Context, json.RawMessage) (any, error) {
	return func(context.Context, json.RawMessage) (any, error) { return selected(id), nil }
}

func raw(answer string) func(context.Context, json.RawMessage) (any, error) {
	return func(context.Context, json.RawMessage) (any, error) { return json.RawMessage(answer), nil }
}

// TestCancelledPermissionOutcomeEndsTheTurn: a permission request answered
// {"outcome":"cancelled"} without any session/cancel (CodeCompanion's
// Cancel, agent-shell's C-c) is the user cancelling the turn: the command
// does not run, the prompt answers stopReason "cancelled", the model is
// not asked again, and the session serves the next prompt.
func TestCancelledPermissionOutcomeEndsTheTurn(t *testing.T) {
	var requests atomic.Int32
	model := providerFunc(func(ctx context.Context, req llm.Request) (*llm.Stream, error) {
		requests.Add(1)
		if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleUser && last.Content == "leave a marker" {
			return callStream(ctx, call("c_bash", "bash", map[string]any{"command": "touch marker"})), nil
		}
		return textStream(ctx, "done"), nil
	})
	e := newEnv(t, withProvider(model))
	var asked atomic.Int32
	e.c.Handle("session/request_permission", func(context.Context, json.RawMessage) (any, error) {
		asked.Add(1)
		return json.RawMessage(`{"outcome":{"outcome":"cancelled"}}`), nil
	})
	e.initialize(plainInitialize)
	s := e.newSession("")
	if got := e.prompt(s, "leave a marker"); got != "cancelled" {
		t.Errorf("stopReason = %s, want cancelled", got)
	}
	if asked.Load() != 1 {
		t.Errorf("asked %d times, want once", asked.Load())
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("the model was asked %d times in the cancelled turn, want once (no step after the cancel)", n)
	}
	if readFile(t, e.dir+"/marker") != "<absent>" {
		t.Errorf("the command ran on a cancelled permission request")
	}
	c := forCall(e.updates(s), "c_bash")
	if finalStatus(c) != "failed" || countStatus(c, "failed") != 1 || countStatus(c, "in_progress") != 0 {
		t.Errorf("the call's statuses %v, want one failed and never in_progress", statuses(c))
	}
	for _, f := range e.c.Frames() {
		if f.Method == "session/cancel" {
			t.Fatalf("the test meant to send no session/cancel")
		}
	}
	if got := e.prompt(s, "and now?"); got != "end_turn" {
		t.Errorf("the next prompt = %s, want end_turn", got)
	}
}

// TestPermissionRequestSaysWhy: the permission request's title is the
// card's title followed by the policy's reason, the one place every
// client shows in its prompt (acpx, CodeCompanion, agent-shell); the card
// keeps its content (an edit's diff first, where CodeCompanion draws it),
// and once answered it gets its own title back (Zed keeps the card the
// request upserted).
func TestPermissionRequestSaysWhy(t *testing.T) {
	tests := []struct {
		name   string
		preset policy.Preset
		call   llm.ToolCall
		title  func(dir string) string
		diff   bool
	}{
		{name: "a program the read-only list does not know", preset: policy.WorkspaceWrite,
			call:  call("c1", "bash", map[string]any{"command": "curl -s example.com"}),
			title: func(string) string { return `curl -s example.com — "curl" is not read-only and no rule allows it` }},
		{name: "a write outside the workspace", preset: policy.WorkspaceWrite,
			call: call("c1", "write", map[string]any{"file_path": "../x", "content": "x\n"}),
			title: func(dir string) string {
				return "Write ../x — writes " + filepath.Dir(dir) + "/x, outside the workspace"
			}, diff: true},
		{name: "an edit under read-only", preset: policy.ReadOnly,
			call:  call("c1", "edit", map[string]any{"file_path": "f.txt", "old_string": "a", "new_string": "b"}),
			title: func(string) string { return "Edit f.txt — changes files, and read-only asks before every change" }, diff: true},
		{name: "a command asking to leave the sandbox", preset: policy.WorkspaceWrite,
			call: call("c1", "bash", map[string]any{"command": "ls", "sandbox": false, "description": "list the cache"}),
			title: func(string) string {
				return "ls — asks to run outside the sandbox (sandbox: false), and workspace-write asks before every such command; the model says why: list the cache"
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, withProvider(replyOnce(tt.call)), withPreset(tt.preset))
			writeFile(t, e.dir+"/f.txt", "a\n")
			asked := rejectEveryAsk(e)
			e.initialize(plainInitialize)
			s := e.newSession("")
			e.prompt(s, "go")

			tc := asked().ToolCall
			want := tt.title(e.dir)
			if tc.Title == nil || *tc.Title != want {
				data, _ := json.Marshal(tc)
				t.Fatalf("the permission request's toolCall %s, want the title %q", data, want)
			}
			if tt.diff && (len(tc.Content) == 0 || tc.Content[0].Diff == nil) {
				data, _ := json.Marshal(tc.Content)
				t.Errorf("the request's content %s, want the diff first", data)
			}
			updates := forCall(e.updates(s), "c1")
			own := *updates[0].Title
			var titles []string
			for _, u := range updates[1:] {
				if u.Title != nil {
					titles = append(titles, *u.Title)
				}
			}
			if len(titles) == 0 || titles[0] != own {
				t.Errorf("titles after the request %q, want the card's own %q back first", titles, own)
			}
		})
	}
}
