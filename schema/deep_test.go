package schema_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/schema"
)

// unionLevels is the deepest chain of oneOf nodes jsonvalue can parse: each
// level nests two JSON containers ({"oneOf":[...]}), the leaf adds one more,
// and Parse caps nesting at 10000. So the chain is 5000 schema nodes deep:
// 4999 unions and the leaf.
const unionLevels = 4999

// deepUnion returns {"oneOf":[{"oneOf":[ … leaf … ,{"type":"null"}]},{"type":"null"}]},
// levels unions deep.
func deepUnion(levels int, leaf string) string {
	var b strings.Builder
	for range levels {
		b.WriteString(`{"oneOf":[`)
	}
	b.WriteString(leaf)
	for range levels {
		b.WriteString(`,{"type":"null"}]}`)
	}
	return b.String()
}

func TestDeepUnion(t *testing.T) {
	s := compile(t, deepUnion(unionLevels, `{"type":"string"}`))
	t.Run("C155 compiles", func(t *testing.T) {
		if s.JSON() != deepUnion(unionLevels, `{"type":"string"}`) {
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
		_, err := schema.CompileText(deepUnion(unionLevels, `{"type":"tuple"}`))
		var schemaErr *schema.Error
		if !errors.As(err, &schemaErr) || len(schemaErr.Violations) != 1 {
			t.Fatalf("CompileText = %v", err)
		}
		want := "schema" + strings.Repeat(".oneOf[0]", unionLevels) + typeList
		if schemaErr.Violations[0] != want {
			t.Errorf("violation path is wrong: %.80s…", schemaErr.Violations[0])
		}
	})
}

// TestDeepUnionIsLinear: compiling and validating a union chain twice as
// deep allocates about twice as much, not four times as much as a walk
// that renders a path string per level (a quadratic walk) would. Bytes
// allocated are counted, not time, so a loaded machine cannot fail it;
// BenchmarkCompileDeepUnion measures the speed.
func TestDeepUnionIsLinear(t *testing.T) {
	deepUnionWork(t, 100) // first-use allocations are not the chain's
	half := allocatedBy(func() { deepUnionWork(t, unionLevels/2) })
	full := allocatedBy(func() { deepUnionWork(t, unionLevels) })
	// Linear is 2, quadratic 4; the slack covers constant costs.
	if ratio := float64(full) / float64(half); ratio > 3 {
		t.Errorf("%d unions allocated %d bytes, %d unions %d bytes: %.1f times as much for twice the depth, want about 2",
			unionLevels/2, half, unionLevels, full, ratio)
	}
}

// deepUnionWork compiles a union chain levels deep, validates a valid and
// an invalid value against it, and compiles the chain with a bad leaf.
func deepUnionWork(t *testing.T, levels int) {
	t.Helper()
	good, bad := deepUnion(levels, `{"type":"string"}`), deepUnion(levels, `{"type":"tuple"}`)
	valid, invalid := parse(t, `"x"`), parse(t, `1`)
	s, err := schema.CompileText(good)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Validate(valid, "value"); got != nil {
		t.Fatalf("Validate = %q", got)
	}
	if got := s.Validate(invalid, "value"); len(got) != 1 {
		t.Fatalf("Validate = %q", got)
	}
	if _, err := schema.CompileText(bad); err == nil {
		t.Fatal("a chain with a bad leaf compiled")
	}
}

// allocatedBy returns the bytes the heap allocated while fn ran.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
