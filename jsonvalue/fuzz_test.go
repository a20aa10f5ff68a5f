package jsonvalue_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
)

// FuzzParse checks that Parse never panics, that canonical text is a fixed
// point decoding to the same data encoding/json sees, and that Parse agrees
// with json.Valid on syntax.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`null`, `true`, `false`, `0`, `-0`, `-0.0e1`, `1e400`, `-1e-400`, `1e-400`, `1.5e+21`,
		`""`, `"\ud800"`, `"\ud83d\ude00"`, "\"\u2028<&>\"", "\"\xff\"", `"\u0000"`,
		`[]`, `{}`, `[1,[2,[3]]]`, `{"a":1,"a":{"b":[]}}`, `{"a":1,}`, `[01]`, ` {"k" : "v"} `,
		`{"file_path":"/tmp/x","limit":10,"tags":["a","b"],"nested":{"ok":true}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := jsonvalue.Parse(text)
		valid := json.Valid([]byte(text))
		if err != nil {
			if errors.Is(err, jsonvalue.ErrNotLossless) {
				return // a syntax error may follow the rejected number
			}
			var syntax *jsonvalue.SyntaxError
			if !errors.As(err, &syntax) {
				t.Fatalf("Parse(%q) error %v is neither SyntaxError nor ErrNotLossless", text, err)
			}
			if syntax.Offset < 0 || syntax.Offset > len(text) {
				t.Fatalf("Parse(%q) offset %d out of range", text, syntax.Offset)
			}
			if valid {
				t.Fatalf("Parse(%q) = %v but json.Valid accepts it", text, err)
			}
			return
		}
		if !valid {
			t.Fatalf("Parse(%q) succeeded but json.Valid rejects it", text)
		}
		canonical := v.Canonical()
		again, err := jsonvalue.Canonicalize(canonical)
		if err != nil || again != canonical {
			t.Fatalf("canonical %q re-canonicalizes to %q, %v", canonical, again, err)
		}
		var want, got any
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatalf("encoding/json rejects %q: %v", text, err)
		}
		if err := json.Unmarshal([]byte(canonical), &got); err != nil {
			t.Fatalf("encoding/json rejects canonical %q: %v", canonical, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("canonical %q decodes to %#v, input %q to %#v", canonical, got, text, want)
		}
	})
}
