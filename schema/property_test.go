package schema_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/schema"
)

// genNode is a randomly generated schema node together with the ability to
// produce a value that satisfies it.
type genNode struct {
	json     string
	valid    func(r *rand.Rand) string
	required []string // object nodes: the required keys
	props    []string // object nodes: the declared keys
}

func genSchema(r *rand.Rand, depth int) genNode {
	kinds := []string{"string", "number", "integer", "boolean", "null", "enum"}
	if depth > 0 {
		kinds = append(kinds, "array", "object", "object")
	}
	switch kind := kinds[r.IntN(len(kinds))]; kind {
	case "string":
		return genNode{json: `{"type":"string"}`, valid: func(r *rand.Rand) string { return fmt.Sprintf(`"s%d"`, r.IntN(100)) }}
	case "number":
		return genNode{json: `{"type":"number"}`, valid: func(r *rand.Rand) string { return fmt.Sprintf(`%d.5`, r.IntN(100)) }}
	case "integer":
		return genNode{json: `{"type":"integer"}`, valid: func(r *rand.Rand) string { return fmt.Sprintf(`%d`, r.IntN(100)-50) }}
	case "boolean":
		return genNode{json: `{"type":"boolean"}`, valid: func(r *rand.Rand) string { return []string{"true", "false"}[r.IntN(2)] }}
	case "null":
		return genNode{json: `{"type":"null"}`, valid: func(*rand.Rand) string { return "null" }}
	case "enum":
		return genNode{json: `{"type":"string","enum":["a","b"]}`, valid: func(r *rand.Rand) string { return []string{`"a"`, `"b"`}[r.IntN(2)] }}
	case "array":
		item := genSchema(r, depth-1)
		return genNode{
			json: `{"type":"array","items":` + item.json + `}`,
			valid: func(r *rand.Rand) string {
				n := r.IntN(3)
				parts := make([]string, n)
				for i := range parts {
					parts[i] = item.valid(r)
				}
				return "[" + strings.Join(parts, ",") + "]"
			},
		}
	default:
		return genObject(r, depth-1)
	}
}

func genObject(r *rand.Rand, depth int) genNode {
	n := r.IntN(5)
	children := make([]genNode, n)
	var props, required, members []string
	for i := range children {
		key := fmt.Sprintf("k%d", i)
		children[i] = genSchema(r, depth)
		props = append(props, key)
		members = append(members, fmt.Sprintf("%q:%s", key, children[i].json))
		if r.IntN(2) == 0 {
			required = append(required, key)
		}
	}
	text := `{"type":"object","properties":{` + strings.Join(members, ",") + `}`
	if len(required) > 0 {
		text += `,"required":["` + strings.Join(required, `","`) + `"]`
	}
	if r.IntN(2) == 0 {
		text += `,"additionalProperties":false`
	}
	text += "}"
	return genNode{
		json:     text,
		required: required,
		props:    props,
		valid: func(r *rand.Rand) string {
			var parts []string
			for i, key := range props {
				isRequired := false
				for _, req := range required {
					isRequired = isRequired || req == key
				}
				if isRequired || r.IntN(2) == 0 {
					parts = append(parts, fmt.Sprintf("%q:%s", key, children[i].valid(r)))
				}
			}
			return "{" + strings.Join(parts, ",") + "}"
		},
	}
}

// TestGeneratedSchemaProperties ports the generated-spec properties
// (C206–C210) to the subset: every generated schema compiles, every value
// generated for it validates, dropping a required key is always reported,
// a non-object top level is always rejected, and validation never panics
// on values generated for another schema.
func TestGeneratedSchemaProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		root := genObject(r, 3)
		s, err := schema.CompileText(root.json)
		if err != nil {
			t.Fatalf("case %d: C206 generated schema did not compile: %v\n%s", i, err, root.json)
		}
		text := root.valid(r)
		v, err := jsonvalue.Parse(text)
		if err != nil {
			t.Fatalf("case %d: generated value is not JSON: %v\n%s", i, err, text)
		}
		if got := s.Validate(v, ""); got != nil {
			t.Fatalf("case %d: C208 a satisfying value was rejected: %q\nschema %s\nvalue  %s", i, got, root.json, text)
		}
		for _, key := range root.required {
			dropped := dropMember(v, key)
			got := s.Validate(dropped, "")
			want := fmt.Sprintf("missing required property %q", key)
			if len(got) == 0 || got[0] != want {
				t.Fatalf("case %d: C209 dropping %q gave %q", i, key, got)
			}
		}
		for _, top := range []string{`null`, `1`, `"s"`, `[]`, `true`} {
			tv, _ := jsonvalue.Parse(top)
			if got := s.Validate(tv, ""); len(got) != 1 || got[0] != `"arguments" must be an object` {
				t.Fatalf("case %d: C210 top level %s gave %q", i, top, got)
			}
		}
		other := genObject(r, 3)
		ov, _ := jsonvalue.Parse(other.valid(r))
		_ = s.Validate(ov, "") // C207: never panics
	}
}

// dropMember returns object v without key.
func dropMember(v jsonvalue.Value, key string) jsonvalue.Value {
	var parts []string
	for k, m := range v.Members() {
		if k != key {
			parts = append(parts, jsonvalue.Quote(k)+":"+m.Canonical())
		}
	}
	out, err := jsonvalue.Parse("{" + strings.Join(parts, ",") + "}")
	if err != nil {
		panic(err)
	}
	return out
}
