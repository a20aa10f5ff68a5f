package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// validator is implemented by the SDK's request types.
type validator interface{ Validate() error }

// decodeParams decodes the params of method into v, a pointer to an SDK
// type, answering -32602 with a message that names the method and the
// problem. Beyond decodeObject's checks it runs the type's Validate.
func decodeParams(method string, raw []byte, v any, required ...string) error {
	if err := decodeObject(raw, v, required...); err != nil {
		return InvalidParams("invalid params for %s: %v", method, err)
	}
	if val, ok := v.(validator); ok {
		if err := val.Validate(); err != nil {
			return InvalidParams("invalid params for %s: %v", method, err)
		}
	}
	return nil
}

// decodeObject decodes a JSON object into v after checking that the
// required top-level fields (from the ACP v1 schema) are present and not
// null: the SDK's Validate methods miss several of them (an initialize
// without protocolVersion, a prompt without sessionId pass). Absent or null
// input counts as {}. The error says what is wrong: not an object, a
// missing field, a field of the wrong type.
func decodeObject(raw []byte, v any, required ...string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return errors.New("must be a JSON object")
	}
	if len(required) > 0 {
		var fields map[string]presence
		if err := json.Unmarshal(raw, &fields); err != nil {
			return errors.New(describeDecodeError(err))
		}
		for _, name := range required {
			if !fields[name] {
				return fmt.Errorf("missing required field %q", name)
			}
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return errors.New(describeDecodeError(err))
	}
	return nil
}

// presence records whether an object member has a value other than null,
// without copying the value (a prompt's text may be megabytes long).
type presence bool

// UnmarshalJSON implements json.Unmarshaler.
func (p *presence) UnmarshalJSON(value []byte) error {
	*p = presence(!bytes.Equal(value, []byte("null")))
	return nil
}

// describeDecodeError phrases an encoding/json error for a client.
func describeDecodeError(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return fmt.Sprintf("expected %s, got JSON %s", typeErr.Type, typeErr.Value)
		}
		return fmt.Sprintf("field %q must be %s, got JSON %s", typeErr.Field, jsonKind(typeErr.Type.Kind().String()), typeErr.Value)
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return fmt.Sprintf("malformed JSON at offset %d: %v", syntaxErr.Offset, err)
	}
	return err.Error()
}

// jsonKind names a Go kind the way a JSON reader thinks of it.
func jsonKind(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "map", "struct":
		return "an object"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	}
	return kind
}
