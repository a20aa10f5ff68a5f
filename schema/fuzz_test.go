package schema_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/schema"
)

// FuzzCompileValidate checks that Compile never panics and either compiles
// or reports at least one violation, that a compiled schema round-trips
// through its JSON, and that Validate never panics and is deterministic.
func FuzzCompileValidate(f *testing.F) {
	seeds := [][2]string{
		{`{}`, `null`},
		{`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`, `{"path":1}`},
		{`{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false}`, `{"a":1.5,"b":2}`},
		{`{"type":"array","items":{"oneOf":[{"type":"number"},{"type":"integer"}]}}`, `[1,1.5,"x"]`},
		{`{"type":"string","enum":["a","b"],"const":"a"}`, `"b"`},
		{`{"oneOf":[{"type":"x"}],"items":1,"anyOf":[]}`, `[]`},
		{`{"type":["string"],"description":1}`, `"s"`},
		{`{"type":"object","required":["toString"],"properties":[]}`, `{}`},
		{`{"oneOf":[{"oneOf":[{"type":"string"},{"type":"null"}]},{"type":"null"}]}`, `null`},
	}
	for _, seed := range seeds {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, schemaText, valueText string) {
		v, err := jsonvalue.Parse(schemaText)
		if err != nil {
			return
		}
		s, err := schema.Compile(v)
		if err != nil {
			var schemaErr *schema.Error
			if !errors.As(err, &schemaErr) || len(schemaErr.Violations) == 0 {
				t.Fatalf("Compile(%s) = %v, want *schema.Error with violations", schemaText, err)
			}
			return
		}
		again, err := schema.CompileText(s.JSON())
		if err != nil || again.JSON() != s.JSON() {
			t.Fatalf("compiled schema %s does not round-trip: %v", s.JSON(), err)
		}
		for _, value := range []jsonvalue.Value{parseOrZero(valueText), v, {}} {
			first := s.Validate(value, "")
			second := s.Validate(value, "value")
			if len(first) != len(second) {
				t.Fatalf("Validate(%s) differs by root label: %q vs %q", value, first, second)
			}
			for _, violation := range second {
				if !strings.Contains(violation, `"value`) {
					t.Fatalf("violation %q does not name the root", violation)
				}
			}
		}
	})
}

func parseOrZero(text string) jsonvalue.Value {
	v, _ := jsonvalue.Parse(text)
	return v
}
