package corpus

import (
	"bytes"
	"encoding/json"
)

// plainChunk is a session/update frame holding nothing but a text chunk.
type plainChunk struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  struct {
		SessionID string `json:"sessionId"`
		Update    struct {
			SessionUpdate string `json:"sessionUpdate"`
			Content       struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"update"`
	} `json:"params"`
}

// encodeFrame writes a frame as the agent does: compact, no HTML escaping.
func encodeFrame(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// asPlainChunk returns the frame when line is exactly a plain text chunk
// (a message, thought or user chunk with no other member).
func asPlainChunk(line []byte) (plainChunk, bool) {
	var c plainChunk
	if json.Unmarshal(line, &c) != nil || c.Params.Update.Content.Type != "text" {
		return c, false
	}
	switch c.Params.Update.SessionUpdate {
	case "agent_message_chunk", "agent_thought_chunk", "user_message_chunk":
	default:
		return c, false
	}
	return c, bytes.Equal(encodeFrame(c), line)
}

// mergeTextRuns joins each run of consecutive plain text chunks of one
// kind and session into one frame, as the agent's outbox does with chunks
// that queue up while it writes: how a burst is split depends on the
// scheduler, what it says does not, so golden files hold runs merged.
func mergeTextRuns(lines [][]byte) [][]byte {
	var out [][]byte
	for i := 0; i < len(lines); {
		first, ok := asPlainChunk(lines[i])
		j := i + 1
		if ok {
			var text bytes.Buffer
			text.WriteString(first.Params.Update.Content.Text)
			for ; j < len(lines); j++ {
				next, ok := asPlainChunk(lines[j])
				if !ok || next.Params.SessionID != first.Params.SessionID ||
					next.Params.Update.SessionUpdate != first.Params.Update.SessionUpdate {
					break
				}
				text.WriteString(next.Params.Update.Content.Text)
			}
			if j-i > 1 {
				first.Params.Update.Content.Text = text.String()
				out = append(out, encodeFrame(first))
				i = j
				continue
			}
		}
		out = append(out, lines[i])
		i = j
	}
	return out
}
