package bridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// TestFileCardsThroughTheStack runs write, edit, read, todo_write and a
// failing edit through the real tools and checks the cards (B40, B53, B57,
// B27, B100; B65 for every frame, by the harness).
func TestFileCardsThroughTheStack(t *testing.T) {
	model := llm.NewScripted(
		toolStep("c_write", "write", map[string]any{"file_path": "notes.txt", "content": "alpha\nbeta\ngamma\n"}),
		toolStep("c_edit", "edit", map[string]any{"file_path": "notes.txt", "old_string": "beta", "new_string": "BETA"}),
		toolStep("c_read", "read", map[string]any{"file_path": "notes.txt"}),
		toolStep("c_todo", "todo_write", map[string]any{"todos": []map[string]any{
			{"content": "write notes", "status": "completed"},
			{"content": "review", "status": "in_progress", "priority": "high"},
		}}),
		toolStep("c_fail", "edit", map[string]any{"file_path": "notes.txt", "old_string": "not in the file", "new_string": "x"}),
		llm.Message{Content: "done"},
	)
	e := newEnv(t, withProvider(model))
	e.initialize(plainInitialize)
	s := e.newSession("")
	if got := e.prompt(s, "work"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}
	path := filepath.Join(e.dir, "notes.txt")
	if got := readFile(t, path); got != "alpha\nBETA\ngamma\n" {
		t.Errorf("notes.txt = %q", got)
	}
	us := e.updates(s)

	t.Run("write: a new-file diff card, pending, in progress, completed", func(t *testing.T) {
		c := forCall(us, "c_write")
		wantStatuses(t, c, "pending", "in_progress", "completed")
		call := c[0]
		if call.Kind != "tool_call" || *call.Title != "Write notes.txt" || call.ToolKind != "edit" {
			t.Errorf("call = %s", call.Raw)
		}
		d := onlyDiff(t, call)
		if d.Path != path || d.OldText != nil || d.NewText != "alpha\nbeta\ngamma\n" {
			t.Errorf("diff = %+v, want a new file (oldText null) at %s", d, path)
		}
		if !strings.Contains(string(call.Raw), `"oldText":null`) {
			t.Errorf("oldText is not an explicit null: %s", call.Raw)
		}
		if len(call.Locations) != 1 || call.Locations[0].Path != path {
			t.Errorf("locations = %+v", call.Locations)
		}
	})
	t.Run("edit: the applied hunk replaces the call-time snippet", func(t *testing.T) {
		c := forCall(us, "c_edit")
		wantStatuses(t, c, "pending", "in_progress", "completed")
		if d := onlyDiff(t, c[0]); d.OldText == nil || *d.OldText != "beta" || d.NewText != "BETA" {
			t.Errorf("call diff = %+v, want the snippet beta→BETA", d)
		}
		last := c[len(c)-1]
		d := onlyDiff(t, last)
		if d.Path != path || d.OldText == nil || *d.OldText != "alpha\nbeta\ngamma\n" || d.NewText != "alpha\nBETA\ngamma\n" {
			t.Errorf("completed diff = %+v, want the hunk with its context, whole lines with their newlines", d)
		}
		// The first changed line (line 2) as the editor's 0-based row.
		if len(last.Locations) != 1 || last.Locations[0].Path != path || last.Locations[0].Line == nil || *last.Locations[0].Line != 1 {
			t.Errorf("completed locations = %+v, want %s at row 1", last.Locations, path)
		}
		if last.Title == nil || *last.Title != "Edit notes.txt" {
			t.Errorf("completed title = %v", last.Title)
		}
	})
	t.Run("read: a location to follow and a relative title", func(t *testing.T) {
		c := forCall(us, "c_read")
		wantStatuses(t, c, "pending", "in_progress", "completed")
		call := c[0]
		if *call.Title != "Read notes.txt" || call.ToolKind != "read" || string(call.RawInput) != `{"file_path":"notes.txt"}` {
			t.Errorf("call = %s", call.Raw)
		}
		if len(call.Locations) != 1 || call.Locations[0].Path != path {
			t.Errorf("locations = %+v, want the absolute path", call.Locations)
		}
		items := c[len(c)-1].items()
		if len(items) != 1 || !strings.Contains(items[0].Content.Text, "BETA") {
			t.Errorf("read result = %+v", items)
		}
	})
	t.Run("B27 todo_write: a plan update with the whole list", func(t *testing.T) {
		var plans []update
		for _, u := range us {
			if u.Kind == "plan" {
				plans = append(plans, u)
			}
		}
		if len(plans) != 1 {
			t.Fatalf("%d plan updates, want 1", len(plans))
		}
		got := fmt.Sprint(plans[0].Entries)
		want := "[{write notes medium completed} {review high in_progress}]"
		if got != want {
			t.Errorf("plan entries = %s, want %s", got, want)
		}
		wantStatuses(t, forCall(us, "c_todo"), "pending", "in_progress", "completed")
	})
	t.Run("B100 a failing tool: exactly one failed update", func(t *testing.T) {
		c := forCall(us, "c_fail")
		wantStatuses(t, c, "pending", "in_progress", "failed")
		if n := countStatus(c, "failed"); n != 1 {
			t.Errorf("%d failed updates", n)
		}
		items := c[len(c)-1].items()
		if len(items) != 1 || !strings.Contains(items[0].Content.Text, "old_string was not found") {
			t.Errorf("failure content = %+v", items)
		}
	})
}

// TestBashCardsB96B97 runs real bash with the terminal convention on and
// off. The command prints its first line, then waits for the test (a gate
// file) before the rest: the first line is shown live while the command
// still runs, whatever the machine's speed.
func TestBashCardsB96B97(t *testing.T) {
	const cmd = "echo line1; until [ -e gate ]; do sleep 0.01; done; echo line2; echo line3"
	for _, terminal := range []bool{true, false} {
		t.Run(fmt.Sprintf("terminal_output=%t", terminal), func(t *testing.T) {
			e := newEnv(t, withProvider(replyOnce(call("c_bash", "bash", map[string]any{"command": cmd, "description": "Count to three"}))), withPreset(policy.FullAccess))
			e.initialize(caps(terminal, false, false))
			s := e.newSession("")
			p := e.startPrompt(s, "count")
			e.waitUpdate(s, "the first line shown live", func(u update) bool {
				return u.ToolCallID == "c_bash" && u.Status == "" && strings.Contains(string(u.Raw), "line1")
			})
			writeFile(t, filepath.Join(e.dir, "gate"), "")
			if got := p.stop(); got != "end_turn" {
				t.Fatalf("stopReason = %s", got)
			}
			c := forCall(e.updates(s), "c_bash")
			if len(c) < 3 {
				t.Fatalf("bash updates: %v", c)
			}
			call := c[0]
			rawInput := `{"command":` + quote(cmd) + `,"description":"Count to three"}`
			if *call.Title != cmd || call.ToolKind != "execute" || string(call.RawInput) != rawInput || call.Status != "pending" {
				t.Errorf("call = %s", call.Raw)
			}
			if c[1].Status != "in_progress" || finalStatus(c) != "completed" || countStatus(c, "completed") != 1 {
				t.Errorf("statuses: %v", statuses(c))
			}
			items := call.items()
			if len(items) == 0 || items[0].Type != "content" || items[0].Content.Text != "Count to three" {
				t.Errorf("call content = %s, want the description first", call.Content)
			}
			if terminal {
				checkTerminalOn(t, e.dir, c, "line1\nline2\nline3\n", true)
				return
			}
			// B96: a bare execute card and a fenced console block, no _meta.
			for _, u := range c {
				if u.hasKey("_meta") {
					t.Errorf("terminal off, but _meta: %s", u.Raw)
				}
			}
			if len(items) != 1 {
				t.Errorf("call content = %s, want only the description", call.Content)
			}
			final := c[len(c)-1].items()
			want := "```console\nline1\nline2\nline3\n```"
			if len(final) != 1 || final[0].Content.Text != want {
				t.Errorf("final content = %+v, want %q", final, want)
			}
		})
	}
}

// checkTerminalOn checks a terminal card on Zed's convention (B97): info on
// the call, output deltas that add up (at least one live before the end
// when wantLive: a quick command's output may all ride on the final
// update), the exit on the final update, and no content on any update.
func checkTerminalOn(t *testing.T, cwd string, c []update, output string, wantLive bool) {
	t.Helper()
	if len(c) < 2 {
		t.Fatalf("terminal card updates: %v", statuses(c))
	}
	call := c[0]
	id := call.ToolCallID
	items := call.items()
	if last := items[len(items)-1]; last.Type != "terminal" || last.TerminalID != id {
		t.Errorf("call content = %s, want a terminal block last", call.Content)
	}
	var info struct {
		TerminalID string `json:"terminal_id"`
		Cwd        string `json:"cwd"`
	}
	if err := json.Unmarshal(call.Meta["terminal_info"], &info); err != nil || info.TerminalID != id || info.Cwd != cwd {
		t.Errorf("terminal_info = %s, want id %s cwd %s", call.Meta["terminal_info"], id, cwd)
	}
	var data strings.Builder
	deltas := 0
	for i, u := range c[1:] {
		if u.hasKey("content") {
			t.Errorf("a terminal update carries content (Zed would drop the terminal): %s", u.Raw)
		}
		var out struct {
			TerminalID string `json:"terminal_id"`
			Data       string `json:"data"`
		}
		if raw, ok := u.Meta["terminal_output"]; ok {
			if err := json.Unmarshal(raw, &out); err != nil || out.TerminalID != id {
				t.Errorf("terminal_output = %s", raw)
			}
			data.WriteString(out.Data)
			if u.Status == "" {
				deltas++
			}
		}
		_, hasExit := u.Meta["terminal_exit"]
		if final := i == len(c)-2; hasExit != final {
			t.Errorf("terminal_exit on update %d of %d: %s", i+1, len(c)-1, u.Raw)
		}
	}
	if data.String() != output {
		t.Errorf("terminal output adds up to %q, want %q", data.String(), output)
	}
	if wantLive && deltas == 0 {
		t.Errorf("no live terminal_output delta before the end")
	}
	var exit struct {
		TerminalID string `json:"terminal_id"`
		ExitCode   *int   `json:"exit_code"`
	}
	if err := json.Unmarshal(c[len(c)-1].Meta["terminal_exit"], &exit); err != nil || exit.TerminalID != id || exit.ExitCode == nil || *exit.ExitCode != 0 {
		t.Errorf("terminal_exit = %s", c[len(c)-1].Meta["terminal_exit"])
	}
}

// TestTerminalGateB98 checks the gate: only _meta.terminal_output === true
// turns the convention on, and each session keeps what it was created
// with, whatever a later initialize says.
func TestTerminalGateB98(t *testing.T) {
	t.Run("only a strict boolean true opts in", func(t *testing.T) {
		for _, meta := range []string{`true`, `"true"`, `1`, `false`, `{}`, `null`} {
			e := newEnv(t, withProvider(replyOnce(call("c1", "bash", map[string]any{"command": "echo hi"}))), withPreset(policy.FullAccess))
			e.initialize(`{"protocolVersion":1,"clientCapabilities":{"terminal":true,"_meta":{"terminal_output":` + meta + `}}}`)
			s := e.newSession("")
			e.prompt(s, "go")
			call := forCall(e.updates(s), "c1")[0]
			if on := call.hasKey("_meta"); on != (meta == "true") {
				t.Errorf("_meta.terminal_output = %s: convention on = %t", meta, on)
			}
		}
	})
	t.Run("the gate is snapshotted per session", func(t *testing.T) {
		e := newEnv(t, withProvider(replyOnce(call("c1", "bash", map[string]any{"command": "echo hi"}))), withPreset(policy.FullAccess))
		e.initialize(caps(true, false, false))
		on := e.newSession("")
		e.initialize(caps(false, false, false))
		off := e.newSession("")
		e.initialize(caps(true, false, false)) // a third initialize changes neither
		for _, s := range []string{off, on} {
			if got := e.prompt(s, "go"); got != "end_turn" {
				t.Fatalf("prompt = %s", got)
			}
		}
		checkTerminalOn(t, e.dir, forCall(e.updates(on), firstCall(e.updates(on))), "hi\n", false)
		for _, u := range forCall(e.updates(off), firstCall(e.updates(off))) {
			if u.hasKey("_meta") {
				t.Errorf("the session created without the convention got _meta: %s", u.Raw)
			}
		}
	})
}

// editor is a client holding unsaved buffers: reads see a buffer before
// the disk, writes go into buffers (the disk stays untouched, as in an
// editor that has not saved yet).
type editor struct {
	mu      sync.Mutex
	buffers map[string]string
	reads   []string
	writes  []acpsdk.WriteTextFileRequest
}

func newEditor(c *acptest.Client, buffers map[string]string) *editor {
	ed := &editor{buffers: buffers}
	c.HandleReadTextFile(func(req acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
		ed.mu.Lock()
		defer ed.mu.Unlock()
		ed.reads = append(ed.reads, req.Path)
		if text, ok := ed.buffers[req.Path]; ok {
			return acpsdk.ReadTextFileResponse{Content: text}, nil
		}
		data, err := readDisk(req.Path)
		if err != nil {
			return acpsdk.ReadTextFileResponse{}, &acptest.RPCError{Code: -32002, Message: "Resource not found: " + req.Path}
		}
		return acpsdk.ReadTextFileResponse{Content: data}, nil
	})
	c.HandleWriteTextFile(func(req acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
		ed.mu.Lock()
		defer ed.mu.Unlock()
		ed.writes = append(ed.writes, req)
		ed.buffers[req.Path] = req.Content
		return acpsdk.WriteTextFileResponse{}, nil
	})
	return ed
}

func (ed *editor) snapshot() (reads []string, writes []acpsdk.WriteTextFileRequest) {
	ed.mu.Lock()
	defer ed.mu.Unlock()
	return append([]string(nil), ed.reads...), append([]acpsdk.WriteTextFileRequest(nil), ed.writes...)
}

// TestEditorFileAccess: with fs.readTextFile/writeTextFile the file tools
// go through the editor inside the workspace (unsaved buffers are seen,
// the disk is untouched); without them, the disk is used.
func TestEditorFileAccess(t *testing.T) {
	for _, offered := range []bool{true, false} {
		t.Run(fmt.Sprintf("offered=%t", offered), func(t *testing.T) {
			outside := tempDir(t)
			model := llm.NewScripted(
				toolStep("c_write", "write", map[string]any{"file_path": "new.txt", "content": "one\ntwo\n"}),
				toolStep("c_read", "read", map[string]any{"file_path": "open.txt"}),
				toolStep("c_edit2", "edit", map[string]any{"file_path": "open.txt", "old_string": "unsaved", "new_string": "edited"}),
				toolStep("c_out", "write", map[string]any{"file_path": outside + "/out.txt", "content": "outside\n"}),
				llm.Message{Content: "done"},
			)
			e := newEnv(t, withProvider(model))
			e.c.HandlePermission(allowOnce) // the write outside the roots asks
			writeFile(t, e.dir+"/open.txt", "saved on disk\n")
			ed := newEditor(e.c, map[string]string{e.dir + "/open.txt": "unsaved buffer\n"})
			e.initialize(caps(false, offered, offered))
			s := e.newSession("")
			if got := e.prompt(s, "work"); got != "end_turn" {
				t.Fatalf("stopReason = %s", got)
			}
			us := e.updates(s)
			for _, id := range []string{"c_write", "c_read", "c_out"} {
				if st := finalStatus(forCall(us, id)); st != "completed" {
					t.Errorf("%s ended %q", id, st)
				}
			}
			reads, writes := ed.snapshot()
			newPath, openPath := e.dir+"/new.txt", e.dir+"/open.txt"
			if readFile(t, outside+"/out.txt") != "outside\n" {
				t.Errorf("the write outside the roots did not reach the disk")
			}
			if !offered {
				if len(reads)+len(writes) != 0 {
					t.Errorf("fs requests without the capability: reads %v writes %v", reads, writes)
				}
				if readFile(t, newPath) != "one\ntwo\n" {
					t.Errorf("new.txt on disk = %q", readFile(t, newPath))
				}
				// The disk's text is what the model saw, and what the failed edit met.
				if res := toolResults(model.Requests()[2]); !strings.Contains(res, "saved on disk") {
					t.Errorf("read gave the model %q", res)
				}
				if st := finalStatus(forCall(us, "c_edit2")); st != "failed" {
					t.Errorf("editing text only an editor buffer holds ended %q", st)
				}
				return
			}
			// Writes went through fs/write_text_file with the whole new text.
			want := []string{newPath + " " + quote("one\ntwo\n"), openPath + " " + quote("edited buffer\n")}
			var got []string
			for _, w := range writes {
				got = append(got, w.Path+" "+quote(w.Content))
				if string(w.SessionId) != s {
					t.Errorf("fs/write_text_file for session %s, want %s", w.SessionId, s)
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("fs/write_text_file requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			// The disk is untouched: the editor has not saved.
			if readFile(t, newPath) != "<absent>" || readFile(t, openPath) != "saved on disk\n" {
				t.Errorf("the disk changed: new.txt %q open.txt %q", readFile(t, newPath), readFile(t, openPath))
			}
			// Reads went through fs/read_text_file, and the model got the unsaved buffer.
			if !contains(reads, openPath) {
				t.Errorf("fs/read_text_file requests %v, want %s", reads, openPath)
			}
			if res := toolResults(model.Requests()[2]); !strings.Contains(res, "unsaved buffer") || strings.Contains(res, "saved on disk") {
				t.Errorf("read gave the model %q, want the unsaved buffer", res)
			}
			if st := finalStatus(forCall(us, "c_edit2")); st != "completed" {
				t.Errorf("editing the unsaved buffer ended %q", st)
			}
			// The diff's old text comes from the same source: the buffer.
			if d := onlyDiff(t, forCall(us, "c_edit2")[len(forCall(us, "c_edit2"))-1]); d.OldText == nil || *d.OldText != "unsaved buffer\n" || d.NewText != "edited buffer\n" {
				t.Errorf("edit diff = %+v", d)
			}
			// A file the disk does not have is not asked for (issue 17).
			if contains(reads, newPath) {
				t.Errorf("fs/read_text_file requests %v: the new file was asked for", reads)
			}
		})
	}
}

// TestEditorReadFails: an fs/read_text_file answered with an error fails
// the call (clearly), and the session goes on.
func TestEditorReadFails(t *testing.T) {
	model := llm.NewScripted(
		toolStep("c_read", "read", map[string]any{"file_path": "a.txt"}),
		llm.Message{Content: "done"},
	)
	e := newEnv(t, withProvider(model))
	writeFile(t, e.dir+"/a.txt", "on disk\n")
	e.c.HandleReadTextFile(func(acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
		return acpsdk.ReadTextFileResponse{}, &acptest.RPCError{Code: -32603, Message: "buffer exploded"}
	})
	e.initialize(caps(false, true, false))
	s := e.newSession("")
	if got := e.prompt(s, "read"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}
	c := forCall(e.updates(s), "c_read")
	if finalStatus(c) != "failed" || countStatus(c, "failed") != 1 {
		t.Errorf("statuses %v, want one failed", statuses(c))
	}
	if res := toolResults(model.Requests()[1]); !strings.Contains(res, "buffer exploded") {
		t.Errorf("the model was told %q", res)
	}
}

// --- helpers for cards ---

// replyOnce is a model that answers a user message with calls and
// anything else (the tool results) with "done". The calls keep their ids
// the first time and get fresh ones (id_2, id_3, …) later, as a model's
// would be.
func replyOnce(calls ...llm.ToolCall) llm.Provider {
	var n atomic.Int32
	return providerFunc(func(ctx context.Context, req llm.Request) (*llm.Stream, error) {
		if last := req.Messages[len(req.Messages)-1]; last.Role != llm.RoleUser {
			return textStream(ctx, "done"), nil
		}
		round := n.Add(1)
		out := append([]llm.ToolCall(nil), calls...)
		if round > 1 {
			for i := range out {
				out[i].ID = fmt.Sprintf("%s_%d", out[i].ID, round)
			}
		}
		return callStream(ctx, out...), nil
	})
}

// callStream streams tool calls.
func callStream(ctx context.Context, calls ...llm.ToolCall) *llm.Stream {
	var evs []llm.Event
	for i, c := range calls {
		evs = append(evs, llm.ToolCallDelta{Index: i, ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return llm.StreamOf(ctx, append(evs, llm.Finish{Reason: llm.FinishToolCalls})...)
}

// firstCall is the id of the first tool_call among us.
func firstCall(us []update) string {
	for _, u := range us {
		if u.Kind == "tool_call" {
			return u.ToolCallID
		}
	}
	return ""
}

func onlyDiff(t *testing.T, u update) item {
	t.Helper()
	items := u.items()
	if len(items) != 1 || items[0].Type != "diff" {
		t.Errorf("content = %s, want one diff", u.Content)
		return item{}
	}
	return items[0]
}

func statuses(us []update) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Kind+":"+u.Status)
	}
	return out
}

// wantStatuses requires a call's status changes, in order.
func wantStatuses(t *testing.T, us []update, want ...string) {
	t.Helper()
	var got []string
	for _, u := range us {
		if u.Status != "" {
			got = append(got, u.Status)
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") || len(us) == 0 || us[0].Kind != "tool_call" {
		t.Errorf("statuses %v, want %v starting with tool_call", statuses(us), want)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func readDisk(path string) (string, error) {
	data, err := os.ReadFile(path)
	return string(data), err
}
