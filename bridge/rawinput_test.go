package bridge_test

import (
	"encoding/json"
	"reflect"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/llm"
)

// TestRawInputIsTheArgumentsObject calls every first-party tool (and an
// unknown one, and calls whose arguments are not an object) and checks
// each tool_call's rawInput, and the permission request's, is the JSON
// object the model sent: agent-shell reads rawInput.command and crashes
// on anything but an object. Arguments that are not an object arrive as
// {"_raw": text}; no arguments at all as {}.
func TestRawInputIsTheArgumentsObject(t *testing.T) {
	objects := map[string]map[string]any{
		"c_read":   {"file_path": "a.txt"},
		"c_write":  {"file_path": "n.txt", "content": "new\n"},
		"c_edit":   {"file_path": "a.txt", "old_string": "alpha", "new_string": "beta"},
		"c_bash":   {"command": "echo hi", "description": "Say hi"},
		"c_bg":     {"command": "true", "run_in_background": true},
		"c_jobout": {"job_id": "job_1"},
		"c_joblst": {},
		"c_jobkil": {"job_id": "job_1"},
		"c_grep":   {"pattern": "alpha", "include": "*.txt"},
		"c_glob":   {"pattern": "*.txt"},
		"c_todo":   {"todos": []any{map[string]any{"content": "a", "status": "pending"}}},
		"c_ghost":  {"x": 1.0},
	}
	tools := map[string]string{
		"c_read": "read", "c_write": "write", "c_edit": "edit", "c_bash": "bash", "c_bg": "bash",
		"c_jobout": "job_output", "c_joblst": "job_list", "c_jobkil": "job_kill",
		"c_grep": "grep", "c_glob": "glob", "c_todo": "todo_write", "c_ghost": "teleport",
	}
	verbatim := []llm.ToolCall{ // arguments as the model sent them, and the rawInput each must give
		{ID: "c_cut", Name: "bash", Arguments: `{"command": "ls`},
		{ID: "c_array", Name: "bash", Arguments: `["ls"]`},
		{ID: "c_string", Name: "grep", Arguments: `"alpha"`},
		{ID: "c_none", Name: "job_list", Arguments: ``},
	}
	wantVerbatim := map[string]map[string]any{
		"c_cut":    {"_raw": `{"command": "ls`},
		"c_array":  {"_raw": `["ls"]`},
		"c_string": {"_raw": `"alpha"`},
		"c_none":   {},
	}
	var calls []llm.ToolCall
	for id, args := range objects {
		calls = append(calls, call(id, tools[id], args))
	}
	calls = append(calls, verbatim...)
	for _, c := range verbatim {
		objects[c.ID], tools[c.ID] = wantVerbatim[c.ID], c.Name
	}

	e := newEnv(t, withProvider(llm.NewScripted(llm.Message{ToolCalls: calls}, llm.Message{Content: "done"})))
	asked := map[string]json.RawMessage{}
	e.c.HandlePermission(func(req acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
		data, _ := json.Marshal(req.ToolCall.RawInput)
		e.mu.Lock()
		asked[string(req.ToolCall.ToolCallId)] = data
		e.mu.Unlock()
		return selected("allow-once")
	})
	writeFile(t, e.dir+"/a.txt", "alpha\n")
	e.initialize(plainInitialize)
	s := e.newSession("")
	if got := e.prompt(s, "use every tool"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}

	seen := map[string]bool{}
	for _, u := range e.updates(s) {
		if u.Kind != "tool_call" {
			continue
		}
		seen[u.ToolCallID] = true
		want, ok := objects[u.ToolCallID]
		if !ok {
			t.Errorf("a tool_call for %s, which the model never made", u.ToolCallID)
			continue
		}
		if got := decodeObject(t, u.RawInput); !reflect.DeepEqual(got, want) {
			t.Errorf("%s (%s): rawInput %s, want the object %v", u.ToolCallID, tools[u.ToolCallID], u.RawInput, want)
		}
	}
	for id := range objects {
		if !seen[id] {
			t.Errorf("no tool_call for %s", id)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(asked) == 0 {
		t.Fatalf("no permission was asked; the test means to check a request's rawInput too")
	}
	for id, raw := range asked {
		if got := decodeObject(t, raw); !reflect.DeepEqual(got, objects[id]) {
			t.Errorf("the permission request for %s: rawInput %s, want the object %v", id, raw, objects[id])
		}
	}
}

// decodeObject decodes raw, which must be a JSON object.
func decodeObject(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Errorf("rawInput %s is not JSON: %v", raw, err)
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		t.Errorf("rawInput %s is not a JSON object", raw)
	}
	return obj
}
