package schema

import (
	"fmt"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
)

// Schema is a compiled, immutable schema of the supported JSON Schema subset.
// It is safe for concurrent use. Obtain one from [Compile], [CompileObject],
// [CompileText] or [MustCompileText]; the zero Schema is not usable.
type Schema struct {
	root  *node
	value jsonvalue.Value
	text  string
}

// Compile checks v against the supported subset (assertSupportedJsonSchema)
// and compiles it. Any root is allowed, including the annotation-only {}
// that accepts any JSON value.
//
// When v falls outside the subset the error is an *[Error] listing every
// violation in walk order, with paths rooted at "schema".
func Compile(v jsonvalue.Value) (*Schema, error) {
	c := checker{path: path{buf: []byte("schema")}}
	root := c.node(v)
	if len(c.violations) > 0 {
		return nil, &Error{Violations: c.violations}
	}
	return &Schema{root: root, value: v, text: v.Canonical()}, nil
}

// CompileObject is [Compile] plus the requirement that the root be
// "type":"object", as structured output needs (assertObjectJsonSchema). The
// root requirement is reported only when the subset check itself passes.
func CompileObject(v jsonvalue.Value) (*Schema, error) {
	s, err := Compile(v)
	if err != nil {
		return nil, err
	}
	if s.root.kind != objectKind {
		return nil, &Error{Violations: []string{notObjectRooted}}
	}
	return s, nil
}

// CompileText parses text with [jsonvalue.Parse] and compiles it. Text that
// is not lossless JSON yields the parse error wrapped with %w (so
// errors.As finds a *jsonvalue.SyntaxError, or errors.Is finds
// jsonvalue.ErrNotLossless); only a parsed schema outside the subset yields
// an *[Error].
func CompileText(text string) (*Schema, error) {
	v, err := jsonvalue.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return Compile(v)
}

// MustCompileText is like [CompileText] but panics on error. It is meant
// for schemas written into the program.
func MustCompileText(text string) *Schema {
	s, err := CompileText(text)
	if err != nil {
		panic(err)
	}
	return s
}

// JSON returns the canonical JSON text of the schema (see
// [jsonvalue.Value.Canonical]).
func (s *Schema) JSON() string { return s.text }

// Value returns the schema as a parsed JSON value.
func (s *Schema) Value() jsonvalue.Value { return s.value }

// MarshalJSON implements [encoding/json.Marshaler] with [Schema.JSON].
func (s *Schema) MarshalJSON() ([]byte, error) { return []byte(s.text), nil }
