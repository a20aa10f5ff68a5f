package acptest

import (
	"bytes"
	"encoding/json"
)

// bigLine is the size from which SendRaw reads only a line's first
// members instead of decoding it whole.
const bigLine = 1 << 20

// requestHead returns the id key and method of a request line, and
// whether it has an id. A line under bigLine is decoded whole; a longer
// one is read member by member up to its first value that does not fit in
// its first bigLine bytes.
func requestHead(line string) (id, method string, ok bool) {
	if len(line) < bigLine {
		if !json.Valid([]byte(line)) {
			return "", "", false
		}
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Method json.RawMessage `json:"method"`
		}
		if json.Unmarshal([]byte(line), &probe) != nil || probe.ID == nil {
			return "", "", false
		}
		_ = json.Unmarshal(probe.Method, &method)
		return idKey(probe.ID), method, true
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(line[:bigLine])))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", "", false
	}
	for dec.More() {
		tok, err := dec.Token()
		key, isKey := tok.(string)
		if err != nil || !isKey {
			break
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			break // a value cut off at bigLine: no later member can be read
		}
		switch key {
		case "id":
			id, ok = idKey(raw), true
		case "method":
			_ = json.Unmarshal(raw, &method)
		}
	}
	return id, method, ok
}
