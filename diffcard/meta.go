package diffcard

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// metaDiff is the JSON shape of one FileDiff in tool meta; the field order
// is the key order Meta writes.
type metaDiff struct {
	Path    string  `json:"path"`
	OldText *string `json:"oldText"`
	NewText string  `json:"newText"`
	Line    int     `json:"line,omitempty"`
}

// Meta returns the presentation meta a file tool attaches to its result:
// the JSON text {"diffs":[{"path":…,"oldText":…,"newText":…,"line":…},…]}
// with keys in that order, oldText null for a nil OldText, line left out
// when it is 0, "[]" when diffs is empty,
// no HTML escaping and no trailing newline. As with encoding/json, invalid
// UTF-8 in a text is written as U+FFFD. FromMeta reads it back.
func Meta(diffs []presentation.FileDiff) string {
	out := struct {
		Diffs []metaDiff `json:"diffs"`
	}{Diffs: make([]metaDiff, len(diffs))}
	for i, d := range diffs {
		out.Diffs[i] = metaDiff{Path: d.Path, OldText: d.OldText, NewText: d.NewText, Line: d.Line}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		// Strings and pointers to strings always encode.
		panic("diffcard: encode meta: " + err.Error())
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// FromMeta reads the diffs a file tool attached as presentation meta (the
// port of diffsFromMeta). It is defensive: ok is true only when meta is a
// JSON object whose "diffs" member is a non-empty array and every entry is
// an object with a string "path", an "oldText" that is a string or null
// (present, not missing), and a string "newText". An entry's "line" is
// read when it is a positive integer and otherwise ignored (Line 0), so
// meta written before lines were recorded still reads. Keys match exactly
// (case sensitive); other members are ignored; "" and anything else give
// nil and false. The returned diffs share no memory with each other.
func FromMeta(meta string) ([]presentation.FileDiff, bool) {
	var top map[string]json.RawMessage
	if !isJSON(meta, '{') || json.Unmarshal([]byte(meta), &top) != nil {
		return nil, false
	}
	var entries []json.RawMessage
	if raw, ok := top["diffs"]; !ok || !isJSON(string(raw), '[') || json.Unmarshal(raw, &entries) != nil || len(entries) == 0 {
		return nil, false
	}
	out := make([]presentation.FileDiff, len(entries))
	for i, raw := range entries {
		var e map[string]json.RawMessage
		if !isJSON(string(raw), '{') || json.Unmarshal(raw, &e) != nil {
			return nil, false
		}
		path, ok1 := jsonString(e["path"])
		newText, ok2 := jsonString(e["newText"])
		if !ok1 || !ok2 {
			return nil, false
		}
		out[i] = presentation.FileDiff{Path: path, NewText: newText, Line: positiveInt(e["line"])}
		switch old := e["oldText"]; {
		case old == nil:
			return nil, false // missing
		case string(old) == "null":
		default:
			s, ok := jsonString(old)
			if !ok {
				return nil, false
			}
			out[i].OldText = &s
		}
	}
	return out, true
}

// positiveInt decodes raw when it is a JSON integer of at least 1, and
// is 0 otherwise.
func positiveInt(raw json.RawMessage) int {
	var n int
	if raw != nil && json.Unmarshal(raw, &n) == nil && n > 0 {
		return n
	}
	return 0
}

// isJSON reports whether the JSON text raw starts with the byte open
// (after white space).
func isJSON(raw string, open byte) bool {
	raw = strings.TrimLeft(raw, " \t\r\n")
	return raw != "" && raw[0] == open
}

// jsonString decodes raw when it is a JSON string.
func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if !isJSON(string(raw), '"') || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
