package bridge_test

import (
	"encoding/json"
	"sync"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// TestApprovalShowsTheRealHunks: the permission request of a write or an
// edit shows the hunks the call will apply to the file as it is when it
// asks — context lines and whole changed lines, each with its line break —
// and is located at the first changed line, while the tool_call first sent
// keeps the pending card (the arguments). Issue 17: CodeCompanion's
// approval of an edit showed "-world +acp" on one line. With the editor's
// fs the file is read as the tool reads it: the editor's buffer.
func TestApprovalShowsTheRealHunks(t *testing.T) {
	const file = "a\nb\nc\nhello world\nd\ne\nf\ng\n"
	type diff struct {
		OldText *string `json:"oldText"`
		NewText string  `json:"newText"`
	}
	tests := []struct {
		name       string
		initialize string
		buffer     string // the editor's unsaved text of the file, if any
		call       llm.ToolCall
		pending    diff
		approval   diff
		row        int // the location's 0-based row
	}{
		{name: "edit", initialize: plainInitialize,
			call:     call("c_edit", "edit", map[string]any{"file_path": "f.txt", "old_string": "world", "new_string": "acp"}),
			pending:  diff{OldText: ptr("world"), NewText: "acp"},
			approval: diff{OldText: ptr("a\nb\nc\nhello world\nd\ne\nf\n"), NewText: "a\nb\nc\nhello acp\nd\ne\nf\n"},
			row:      3},
		{name: "write over an existing file", initialize: plainInitialize,
			call:     call("c_write", "write", map[string]any{"file_path": "f.txt", "content": "A\nb\nc\nhello world\nd\ne\nf\ng\n"}),
			pending:  diff{NewText: "A\nb\nc\nhello world\nd\ne\nf\ng\n"},
			approval: diff{OldText: ptr("a\nb\nc\nhello world\n"), NewText: "A\nb\nc\nhello world\n"},
			row:      0},
		{name: "edit through the editor's buffer", initialize: zedInitialize, buffer: "a\nb\nc\nhello unsaved world\nd\ne\nf\ng\n",
			call:     call("c_edit", "edit", map[string]any{"file_path": "f.txt", "old_string": "world", "new_string": "acp"}),
			pending:  diff{OldText: ptr("world"), NewText: "acp"},
			approval: diff{OldText: ptr("a\nb\nc\nhello unsaved world\nd\ne\nf\n"), NewText: "a\nb\nc\nhello unsaved acp\nd\ne\nf\n"},
			row:      3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, withProvider(replyOnce(tt.call)), withPreset(policy.ReadOnly))
			path := e.dir + "/f.txt"
			writeFile(t, path, file)
			if tt.buffer != "" {
				newEditor(e.c, map[string]string{path: tt.buffer})
			}
			asked := rejectEveryAsk(e)
			e.initialize(tt.initialize)
			s := e.newSession("")
			e.prompt(s, "change it")

			announced := forCall(e.updates(s), tt.call.ID)[0]
			var pending []diff
			if err := json.Unmarshal(announced.Content, &pending); err != nil || len(pending) != 1 || !sameDiff(pending[0].OldText, pending[0].NewText, tt.pending.OldText, tt.pending.NewText) {
				t.Errorf("the tool_call's content %s, want the pending card %+v", announced.Content, tt.pending)
			}
			tc := asked().ToolCall
			if len(tc.Content) != 1 || tc.Content[0].Diff == nil {
				data, _ := json.Marshal(tc)
				t.Fatalf("the permission request's toolCall %s, want one diff", data)
			}
			d := tc.Content[0].Diff
			if d.Path != path || !sameDiff(d.OldText, d.NewText, tt.approval.OldText, tt.approval.NewText) {
				t.Errorf("the approval's diff = %q → %q, want %q → %q", deref(d.OldText), d.NewText, deref(tt.approval.OldText), tt.approval.NewText)
			}
			if len(tc.Locations) != 1 || tc.Locations[0].Path != path || tc.Locations[0].Line == nil || *tc.Locations[0].Line != tt.row {
				data, _ := json.Marshal(tc.Locations)
				t.Errorf("the approval's locations %s, want %s at row %d", data, path, tt.row)
			}
			if readFile(t, path) != file {
				t.Errorf("a rejected call changed the file")
			}
		})
	}
}

// rejectEveryAsk answers every permission request of e with reject-once;
// the function it returns gives the last request.
func rejectEveryAsk(e *env) func() acpsdk.RequestPermissionRequest {
	var (
		mu  sync.Mutex
		req acpsdk.RequestPermissionRequest
	)
	e.c.HandlePermission(func(r acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
		mu.Lock()
		defer mu.Unlock()
		req = r
		return selected("reject-once")
	})
	return func() acpsdk.RequestPermissionRequest {
		mu.Lock()
		defer mu.Unlock()
		return req
	}
}

func sameDiff(old *string, neu string, wantOld *string, wantNew string) bool {
	return (old == nil) == (wantOld == nil) && deref(old) == deref(wantOld) && neu == wantNew
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func ptr(s string) *string { return &s }
