package acp

import (
	"bytes"
	"encoding/json"
	"strconv"

	"go.lsp.dev/jsonrpc2"
)

// leadingID reads a request's id from the first bytes of its frame, for
// answering a frame that is not decoded whole (one over the line limit).
// The frame's top-level members are read in order up to "id"; a member
// before it whose value does not end within head (a huge "params") hides
// the id, and so does anything that is not JSON. A string or integer id is
// returned; otherwise the null id.
func leadingID(head []byte) jsonrpc2.ID {
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return jsonrpc2.ID{}
	}
	for {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return jsonrpc2.ID{}
		}
		if key == "id" {
			return scalarID(dec)
		}
		if skipValue(dec) != nil {
			return jsonrpc2.ID{}
		}
	}
}

// scalarID reads the next value as an id: a string, or a number that is
// an integer.
func scalarID(dec *json.Decoder) jsonrpc2.ID {
	tok, err := dec.Token()
	if err != nil {
		return jsonrpc2.ID{}
	}
	switch v := tok.(type) {
	case string:
		return jsonrpc2.NewStringID(v)
	case json.Number:
		if n, err := strconv.ParseInt(v.String(), 10, 64); err == nil {
			return jsonrpc2.NewNumberID(n)
		}
	}
	return jsonrpc2.ID{}
}

// skipValue reads past the next value, however deeply nested.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
