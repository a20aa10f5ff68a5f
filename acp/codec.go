package acp

import (
	"bytes"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// stdCodec is the jsonrpc2 payload codec built on the standard library's
// encoding/json, so struct tags mean what the ACP SDK types were generated
// for: `omitempty` drops empty slices and false booleans, a nil slice is
// null, field names match case-insensitively on decode. HTML characters are
// not escaped (the jsonrpc2 Codec contract) and raw messages pass verbatim.
type stdCodec struct{}

var _ jsonrpc2.Codec = stdCodec{}

// Marshal implements jsonrpc2.Codec.
func (stdCodec) Marshal(v any) ([]byte, error) {
	switch raw := v.(type) {
	case nil:
		return []byte("null"), nil
	case json.RawMessage:
		return raw, nil
	case jsonrpc2.RawMessage:
		return raw, nil
	}
	return marshalJSON(v)
}

// Unmarshal implements jsonrpc2.Codec.
func (stdCodec) Unmarshal(data []byte, v any) error {
	switch dst := v.(type) {
	case *json.RawMessage:
		*dst = bytes.Clone(data)
		return nil
	case *jsonrpc2.RawMessage:
		*dst = bytes.Clone(data)
		return nil
	}
	return json.Unmarshal(data, v)
}

// marshalJSON encodes v compactly, without HTML escaping and without the
// trailing newline json.Encoder adds.
func marshalJSON(v any) ([]byte, error) {
	// json.Marshal reuses its encoder state; its output differs only where
	// it escaped <, > or &, which is rare: only then encode again.
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("acp: encoding %T: %w", v, err)
	}
	if !bytes.Contains(data, []byte(`\u003c`)) && !bytes.Contains(data, []byte(`\u003e`)) && !bytes.Contains(data, []byte(`\u0026`)) {
		return data, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("acp: encoding %T: %w", v, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}
