package corpus

import (
	"encoding/json"
	"fmt"
)

// Frame is one JSON-RPC message the agent wrote, decoded just enough to
// check a case against it.
type Frame struct {
	// Line is the frame as written.
	Line []byte
	// Method is set on requests and notifications.
	Method string `json:"method"`
	// ID is set on requests and responses.
	ID json.RawMessage `json:"id"`
	// Params is set on requests and notifications.
	Params json.RawMessage `json:"params"`
	// Result is set on successful responses.
	Result json.RawMessage `json:"result"`
}

// Update is the part of a session/update the checks read.
type Update struct {
	Kind       string          `json:"sessionUpdate"`
	ToolCallID string          `json:"toolCallId"`
	Status     string          `json:"status"`
	RawInput   json.RawMessage `json:"rawInput"`
	Content    []struct {
		Type    string  `json:"type"`
		OldText *string `json:"oldText"`
	} `json:"content"`
	// Raw is the update's JSON.
	Raw json.RawMessage `json:"-"`
}

// ParseFrames decodes the agent's frames, one per line.
func ParseFrames(lines [][]byte) ([]Frame, error) {
	frames := make([]Frame, 0, len(lines))
	for i, line := range lines {
		var f Frame
		if err := json.Unmarshal(line, &f); err != nil {
			return nil, fmt.Errorf("frame %d is not JSON: %w", i+1, err)
		}
		f.Line = line
		frames = append(frames, f)
	}
	return frames, nil
}

// update decodes a session/update notification's update; ok is false for
// any other frame.
func (f Frame) update() (u Update, ok bool) {
	if f.Method != "session/update" {
		return u, false
	}
	var p struct {
		Update json.RawMessage `json:"update"`
	}
	if json.Unmarshal(f.Params, &p) != nil || json.Unmarshal(p.Update, &u) != nil {
		return u, false
	}
	u.Raw = p.Update
	return u, true
}

// isFinal reports whether a tool call status ends the call.
func isFinal(status string) bool { return status == "completed" || status == "failed" }
