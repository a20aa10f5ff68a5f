package bridge_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/corpus"
)

// foldTerminalOutput merges each update that carries nothing but a call's
// terminal output into that call's next update, so live and replayed
// updates compare equal: how a command's live output is split into
// updates depends on when its pieces arrive, and the session log stores
// the pieces joined. Every update with terminal output is written anew
// (keys sorted), on both sides alike.
func foldTerminalOutput(t *testing.T, frames []corpus.Frame) []corpus.Frame {
	t.Helper()
	pending := map[string]map[string]any{} // a call's output not yet shown, by call
	var out []corpus.Frame
	for _, f := range frames {
		var msg map[string]any
		if err := json.Unmarshal(f.Line, &msg); err != nil {
			t.Fatalf("frame %s: %v", f.Line, err)
		}
		update, id := callUpdate(msg)
		if update == nil {
			out = append(out, f)
			continue
		}
		meta, _ := update["_meta"].(map[string]any)
		output, _ := meta["terminal_output"].(map[string]any)
		if earlier := pending[id]; earlier != nil {
			delete(pending, id)
			if output == nil {
				output = map[string]any{"terminal_id": earlier["terminal_id"], "data": ""}
				if meta == nil {
					meta = map[string]any{}
					update["_meta"] = meta
				}
				meta["terminal_output"] = output
			}
			output["data"] = fmt.Sprint(earlier["data"]) + fmt.Sprint(output["data"])
		}
		if output == nil {
			out = append(out, f)
			continue
		}
		if len(update) == 3 && len(meta) == 1 { // sessionUpdate, toolCallId and _meta with the output alone
			pending[id] = output
			continue
		}
		line, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, corpus.Frame{Line: line, Method: f.Method})
	}
	for id, output := range pending {
		t.Errorf("call %s: terminal output %q with no later update", id, output["data"])
	}
	return out
}

// callUpdate is msg's tool_call_update and its call's id, when msg, a
// session/update notification, is one.
func callUpdate(msg map[string]any) (update map[string]any, id string) {
	params, _ := msg["params"].(map[string]any)
	update, _ = params["update"].(map[string]any)
	if update["sessionUpdate"] != "tool_call_update" {
		return nil, ""
	}
	id, _ = update["toolCallId"].(string)
	return update, id
}

func TestFoldTerminalOutput(t *testing.T) {
	frame := func(s string) corpus.Frame {
		return corpus.Frame{Line: []byte(`{"method":"session/update","params":{"update":` + s + `}}`), Method: "session/update"}
	}
	live := []corpus.Frame{
		frame(`{"sessionUpdate":"tool_call_update","toolCallId":"b1","_meta":{"terminal_output":{"terminal_id":"b1","data":"hi\n"}}}`),
		frame(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}`),
		frame(`{"sessionUpdate":"tool_call_update","toolCallId":"b1","status":"completed","_meta":{"terminal_output":{"terminal_id":"b1","data":"done\n"},"terminal_exit":{"terminal_id":"b1","exit_code":0}}}`),
	}
	replayed := []corpus.Frame{
		frame(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}`),
		frame(`{"sessionUpdate":"tool_call_update","toolCallId":"b1","status":"completed","_meta":{"terminal_exit":{"terminal_id":"b1","exit_code":0},"terminal_output":{"terminal_id":"b1","data":"hi\ndone\n"}}}`),
	}
	liveWhole := []corpus.Frame{
		frame(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}`),
		frame(`{"sessionUpdate":"tool_call_update","toolCallId":"b1","_meta":{"terminal_output":{"terminal_id":"b1","data":"hi\ndone\n"}}}`),
		frame(`{"sessionUpdate":"tool_call_update","toolCallId":"b1","status":"completed","_meta":{"terminal_exit":{"terminal_id":"b1","exit_code":0}}}`),
	}
	want := foldTerminalOutput(t, replayed)
	for name, frames := range map[string][]corpus.Frame{"split output": live, "output before the exit": liveWhole} {
		got := foldTerminalOutput(t, frames)
		if len(got) != len(want) {
			t.Fatalf("%s: folded to %d frames, want %d", name, len(got), len(want))
		}
		for i := range got {
			if string(got[i].Line) != string(want[i].Line) {
				t.Errorf("%s: frame %d:\n%s\nwant\n%s", name, i, got[i].Line, want[i].Line)
			}
		}
	}
}
