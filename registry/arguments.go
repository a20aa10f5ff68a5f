package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
)

// ErrLossyArguments is returned by MaterializeArguments when the arguments
// are JSON that cannot be carried losslessly (a number out of range, -0).
var ErrLossyArguments = errors.New("tool execution arguments must be losslessly JSON-serializable")

// Arguments are a call's materialized arguments: an immutable, canonical
// JSON value shared by every pipeline stage. A tool decodes them once per
// call, when it binds them (Tool.Bind).
type Arguments struct {
	value jsonvalue.Value
	// canonical is the canonical JSON text; it is never handed out, so it
	// cannot change.
	canonical []byte
	invalid   error
}

// MaterializeArguments turns the raw argument text a model sent into
// Arguments. Empty text means {}. Text that is not JSON is kept as a JSON
// string holding the raw text, and InvalidJSON reports why it did not parse;
// the call still runs, so the tool (or its validation) can answer. JSON that
// cannot be carried losslessly is an error wrapping ErrLossyArguments.
func MaterializeArguments(raw string) (Arguments, error) {
	if strings.TrimSpace(raw) == "" {
		raw = "{}"
	}
	v, err := jsonvalue.Parse(raw)
	if err == nil {
		return Arguments{value: v, canonical: v.AppendCanonical(make([]byte, 0, len(raw)))}, nil
	}
	if errors.Is(err, jsonvalue.ErrNotLossless) {
		return Arguments{}, fmt.Errorf("%w: %w", ErrLossyArguments, err)
	}
	quoted, qerr := jsonvalue.Marshal(raw)
	if qerr != nil {
		return Arguments{}, fmt.Errorf("%w: %w", ErrLossyArguments, qerr)
	}
	sv, perr := jsonvalue.Parse(quoted)
	if perr != nil {
		return Arguments{}, fmt.Errorf("%w: %w", ErrLossyArguments, perr)
	}
	return Arguments{value: sv, canonical: []byte(quoted), invalid: err}, nil
}

// ArgumentsOf materializes a Go value (marshalled with encoding/json), for
// host code that calls a tool directly.
func ArgumentsOf(v any) (Arguments, error) {
	text, err := jsonvalue.Marshal(v)
	if err != nil {
		return Arguments{}, fmt.Errorf("%w: %w", ErrLossyArguments, err)
	}
	return MaterializeArguments(text)
}

// JSON returns the canonical JSON text ("{}" for the zero Arguments).
func (a Arguments) JSON() string {
	if a.canonical == nil {
		return "{}"
	}
	return string(a.canonical)
}

// Value returns the parsed, immutable value.
func (a Arguments) Value() jsonvalue.Value {
	if a.canonical == nil {
		v, _ := jsonvalue.Parse("{}")
		return v
	}
	return a.value
}

// InvalidJSON reports why the model's text was not JSON, or nil when it was.
// When it is non-nil, Value is a JSON string holding the raw text.
func (a Arguments) InvalidJSON() error { return a.invalid }

// Decode unmarshals a fresh copy of the arguments into dst.
func (a Arguments) Decode(dst any) error {
	if a.canonical == nil {
		return json.Unmarshal([]byte("{}"), dst)
	}
	return json.Unmarshal(a.canonical, dst)
}
