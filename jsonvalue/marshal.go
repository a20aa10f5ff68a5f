package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Marshal encodes v with encoding/json (HTML escaping off) and returns the
// canonical text of the result. Map keys therefore come out sorted and
// struct fields in declaration order, as encoding/json emits them.
//
// Values JSON cannot hold losslessly fail with an error wrapping
// [ErrNotLossless]: NaN, infinities, negative zero, channels, functions,
// cycles, and anything else encoding/json refuses as a value or type. An
// error returned by a value's own MarshalJSON or MarshalText method is
// wrapped as it is, without ErrNotLossless.
func Marshal(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "null", nil
	case string:
		return Quote(v), nil
	case bool:
		if v {
			return "true", nil
		}
		return "false", nil
	case Value:
		if v.kind == KindInvalid {
			return "", fmt.Errorf("%w: %w", errZeroValue, ErrNotLossless)
		}
		return v.Canonical(), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		var marshalerErr *json.MarshalerError
		if errors.As(err, &marshalerErr) {
			return "", fmt.Errorf("jsonvalue: marshal %T: %w", v, err)
		}
		return "", fmt.Errorf("jsonvalue: marshal %T: %w: %w", v, ErrNotLossless, err)
	}
	return Canonicalize(buf.String())
}

// Quote returns s as canonical JSON string text: the text Canonicalize
// gives for any JSON string that decodes to s (invalid UTF-8 becomes
// U+FFFD).
func Quote(s string) string {
	if !utf8.ValidString(s) {
		// Each invalid byte becomes one U+FFFD, as encoding/json does.
		var b strings.Builder
		for _, r := range s {
			b.WriteRune(r)
		}
		s = b.String()
	}
	return string(appendQuoted(make([]byte, 0, len(s)+2), s))
}

// errZeroValue is returned when the zero Value is asked for JSON text.
var errZeroValue = errors.New("jsonvalue: the zero Value has no JSON text")

// MarshalJSON implements [json.Marshaler] with the canonical text, so a
// Value can sit inside any structure encoding/json encodes. The zero Value
// fails to marshal.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.kind == KindInvalid {
		return nil, errZeroValue
	}
	return v.AppendCanonical(nil), nil
}

// UnmarshalJSON implements [json.Unmarshaler] by parsing a copy of data with
// [Parse]; on error *v is left unchanged.
func (v *Value) UnmarshalJSON(data []byte) error {
	parsed, err := Parse(string(data))
	if err != nil {
		return err
	}
	*v = parsed
	return nil
}
