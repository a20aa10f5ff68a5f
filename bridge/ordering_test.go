package bridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// TestClientRequestsFollowTheirUpdates: every request to the client
// (fs/read_text_file, fs/write_text_file, session/request_permission)
// goes out after every update queued before it: the thought and message
// chunks of its step and the tool_call of its call. Each step streams
// hundreds of chunks, so a request that skips the queue overtakes them.
func TestClientRequestsFollowTheirUpdates(t *testing.T) {
	const chunks = 200 // of thought and of message, per step
	steps := []struct {
		call  string
		tool  string
		args  map[string]any
		paths []string // the files its fs requests name
	}{
		{"c_write", "write", map[string]any{"file_path": "new.txt", "content": "one\n"}, []string{"new.txt"}},
		{"c_read", "read", map[string]any{"file_path": "a.txt"}, []string{"a.txt"}},
		{"c_edit", "edit", map[string]any{"file_path": "b.txt", "old_string": "beta", "new_string": "BETA"}, []string{"b.txt"}},
		{"c_bash", "bash", map[string]any{"command": "true"}, nil}, // asks permission
	}
	model := providerFunc(func(ctx context.Context, req llm.Request) (*llm.Stream, error) {
		n := 0 // the step: how many tool results came back
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool {
				n++
			}
		}
		if n == len(steps) {
			return textStream(ctx, "done"), nil
		}
		var evs []llm.Event
		for k := range chunks {
			evs = append(evs, llm.ReasoningDelta{Text: fmt.Sprintf("r%d.%d ", n, k)})
		}
		for k := range chunks {
			evs = append(evs, llm.TextDelta{Text: fmt.Sprintf("t%d.%d ", n, k)})
		}
		c := call(steps[n].call, steps[n].tool, steps[n].args)
		evs = append(evs, llm.ToolCallDelta{ID: c.ID, Name: c.Name, Arguments: c.Arguments}, llm.Finish{Reason: llm.FinishToolCalls})
		return llm.StreamOf(ctx, evs...), nil
	})
	e := newEnv(t, withProvider(model))
	writeFile(t, e.dir+"/a.txt", "alpha\n")
	writeFile(t, e.dir+"/b.txt", "beta\n")
	newEditor(e.c, map[string]string{})
	e.c.HandlePermission(allowOnce)
	e.initialize(caps(false, true, true))
	s := e.newSession("")
	if got := e.prompt(s, "work"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}

	stepOf := map[string]int{} // a request's path or call → its step
	for n, st := range steps {
		stepOf[st.call] = n
		for _, p := range st.paths {
			stepOf[e.dir+"/"+p] = n
		}
	}
	var thought, message strings.Builder // the chunks' text so far
	announced := map[string]bool{}
	requests := 0
	for i, f := range e.c.Frames() {
		switch {
		case f.Method == "session/update":
			u, ok := decodeUpdate(f)
			if !ok {
				continue
			}
			switch u.Kind {
			case "agent_thought_chunk":
				thought.WriteString(u.chunkText())
			case "agent_message_chunk":
				message.WriteString(u.chunkText())
			case "tool_call":
				announced[u.ToolCallID] = true
			}
		case f.IsRequest():
			var target struct {
				Path     string `json:"path"`
				ToolCall struct {
					ToolCallID string `json:"toolCallId"`
				} `json:"toolCall"`
			}
			if err := json.Unmarshal(f.Params, &target); err != nil {
				t.Fatal(err)
			}
			key := target.Path
			if strings.HasPrefix(f.Method, "session/") {
				key = target.ToolCall.ToolCallID
			}
			n, ok := stepOf[key]
			if !ok {
				t.Errorf("frame %d: a %s for %q, which no step touches", i, f.Method, key)
				continue
			}
			requests++
			// The step's last deltas: the chunks keep their order.
			lastThought, lastText := fmt.Sprintf("r%d.%d ", n, chunks-1), fmt.Sprintf("t%d.%d ", n, chunks-1)
			if !strings.Contains(thought.String(), lastThought) || !strings.Contains(message.String(), lastText) {
				t.Errorf("frame %d: %s for %s went out before the end of its step's thought or message (%d and %d bytes of them sent)",
					i, f.Method, key, thought.Len(), message.Len())
			}
			if !announced[steps[n].call] {
				t.Errorf("frame %d: %s for %s went out before the tool_call of %s", i, f.Method, key, steps[n].call)
			}
		}
	}
	if requests < len(steps) {
		t.Errorf("%d client requests, want at least %d (one per step)", requests, len(steps))
	}
}
