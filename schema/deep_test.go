package schema_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/schema"
)

// unionLevels is the deepest chain of oneOf nodes jsonvalue can parse: each
// level nests two JSON containers ({"oneOf":[...]}), the leaf adds one more,
// and Parse caps nesting at 10000. So the chain is 5000 schema nodes deep:
// 4999 unions and the leaf.
const unionLevels = 4999

// deepUnion returns {"oneOf":[{"oneOf":[ … leaf … ,{"type":"null"}]},{"type":"null"}]}.
func deepUnion(leaf string) string {
	var b strings.Builder
	for range unionLevels {
		b.WriteString(`{"oneOf":[`)
	}
	b.WriteString(leaf)
	for range unionLevels {
		b.WriteString(`,{"type":"null"}]}`)
	}
	return b.String()
}

func TestDeepUnion(t *testing.T) {
	start := time.Now()
	s := compile(t, deepUnion(`{"type":"string"}`))
	t.Run("C155 compiles", func(t *testing.T) {
		if s.JSON() != deepUnion(`{"type":"string"}`) {
			t.Error("JSON() differs from the source")
		}
	})
	t.Run("C165 valid leaf value", func(t *testing.T) {
		if got := s.Validate(parse(t, `"x"`), "value"); got != nil {
			t.Errorf("Validate = %q", got)
		}
	})
	t.Run("C165 invalid value", func(t *testing.T) {
		want := []string{`"value" must match exactly one oneOf branch (matched 0)`}
		if got := s.Validate(parse(t, `1`), "value"); strings.Join(got, "\n") != want[0] {
			t.Errorf("Validate = %q, want %q", got, want)
		}
	})
	t.Run("C155 violation at the bottom", func(t *testing.T) {
		_, err := schema.CompileText(deepUnion(`{"type":"tuple"}`))
		var schemaErr *schema.Error
		if !errors.As(err, &schemaErr) || len(schemaErr.Violations) != 1 {
			t.Fatalf("CompileText = %v", err)
		}
		want := "schema" + strings.Repeat(".oneOf[0]", unionLevels) + typeList
		if schemaErr.Violations[0] != want {
			t.Errorf("violation path is wrong: %.80s…", schemaErr.Violations[0])
		}
	})
	// Generous bound: a quadratic walk (a path string per level) takes far
	// longer than this at this depth even on a slow machine with -race.
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("deep union took %v", elapsed)
	}
}
