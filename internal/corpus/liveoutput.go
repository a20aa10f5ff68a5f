package corpus

import (
	"bytes"
	"encoding/json"
)

// liveUpdate is the part of a session/update frame foldLiveOutput reads.
type liveUpdate struct {
	Params struct {
		Update map[string]json.RawMessage `json:"update"`
	} `json:"params"`
}

// foldLiveOutput folds each live-output update of a tool call (a
// tool_call_update carrying only the command's output so far: Zed's
// _meta.terminal_output, or the console block) into the call's final
// update when that comes next, as the agent's outbox does when both are
// queued before it writes. Whether a command's last output goes out alone
// or with the final status depends on the scheduler; what the client ends
// up showing does not, so golden files hold the folded form: the output's
// data joined in front of the final update's, a console block dropped
// (the final update carries the whole block).
func foldLiveOutput(lines [][]byte) [][]byte {
	var out [][]byte
	for i := 0; i < len(lines); i++ {
		if i+1 < len(lines) {
			if folded, ok := fold(lines[i], lines[i+1]); ok {
				lines[i+1] = folded
				continue
			}
		}
		out = append(out, lines[i])
	}
	return out
}

// fold returns final with live folded into it, when live is a live-output
// update of the call final ends.
func fold(live, final []byte) ([]byte, bool) {
	var l, f map[string]any
	if json.Unmarshal(live, &l) != nil || json.Unmarshal(final, &f) != nil {
		return nil, false
	}
	lu, fu := update(l), update(f)
	if lu == nil || fu == nil || lu["sessionUpdate"] != "tool_call_update" || fu["sessionUpdate"] != "tool_call_update" ||
		lu["toolCallId"] != fu["toolCallId"] || lu["status"] != nil || (fu["status"] != "completed" && fu["status"] != "failed") {
		return nil, false
	}
	switch {
	case len(lu) == 3 && lu["content"] != nil:
		return final, true
	case len(lu) == 3 && lu["_meta"] != nil:
		lm, _ := lu["_meta"].(map[string]any)
		fm, _ := fu["_meta"].(map[string]any)
		lo, _ := lm["terminal_output"].(map[string]any)
		fo, _ := fm["terminal_output"].(map[string]any)
		if len(lm) != 1 || lo == nil || fo == nil {
			return nil, false
		}
		ld, _ := lo["data"].(string)
		fd, _ := fo["data"].(string)
		fo["data"] = ld + fd
		folded, err := reorder(final, f)
		return folded, err == nil
	}
	return nil, false
}

// update is a decoded frame's params.update.
func update(frame map[string]any) map[string]any {
	params, _ := frame["params"].(map[string]any)
	u, _ := params["update"].(map[string]any)
	return u
}

// reorder encodes v (decoded from original and then changed) with the
// members of every object in the order original has them: the agent's
// order, which a map loses.
func reorder(original []byte, v any) ([]byte, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return encodeFrame(v), nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(original, &members); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(original))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for n := 0; dec.More(); n++ {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(encodeFrame(key))
		b.WriteByte(':')
		inner, err := reorder(members[key], obj[key])
		if err != nil {
			return nil, err
		}
		b.Write(inner)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
