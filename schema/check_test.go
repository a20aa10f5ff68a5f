package schema_test

// Reference cases C144–C168 (json-schema.spec.ts) and C108–C118
// (schema.spec.ts validateArgs) ported here and in validate_test.go and
// deep_test.go. Not ported, because the situation cannot arise once JSON is
// parsed into a jsonvalue.Value:
//   - C147 sparse oneOf arrays, an exotic Array subclass, a proxy trap;
//   - C152 undefined, Infinity, Date, cyclic, proxied, hidden- or symbol-keyed
//     annotations (Infinity and -0 cannot be parsed: see
//     TestCompileTextNotLossless);
//   - C153 and C163's other-realm values (Go has one "realm");
//   - C154 cycles and forged prototypes (a parsed tree has neither; "is
//     circular" is not implemented), sibling reuse is ported;
//   - C161 present-but-undefined keys and Date values;
//   - C162 hostile getters; C163 sparse arrays;
//   - C166 undefined, functions, Map, cycles and proxies (Infinity and -0 are
//     rejected by Parse; the zero Value stands in for "not lossless");
//   - C167 inherited keys and properties/required set to undefined;
//   - C168 a forged type reaching the validator (compiled nodes cannot be
//     forged).
// C109's "present as undefined" half and C110–C111's defaults-with-undefined
// variants reduce to absent keys, which are ported.

import (
	"errors"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/schema"
)

const subset = " is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)"

const typeList = ".type must be one of object/array/string/number/integer/boolean/null"

func parse(t testing.TB, text string) jsonvalue.Value {
	t.Helper()
	v, err := jsonvalue.Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return v
}

func TestCompileAccepts(t *testing.T) {
	tests := []struct {
		name, schema string
	}{
		{"C144 any root", `{}`},
		{"C144 annotation-only root", `{"description":"anything","title":"Any","default":{"a":[1,null]},"examples":[1,"x"]}`},
		{"C144 object", `{"type":"object"}`},
		{"C144 object full", `{"type":"object","properties":{"a":{"type":"string"},"b":{}},"required":["a"],"additionalProperties":false}`},
		{"C144 object open", `{"type":"object","properties":{},"additionalProperties":true}`},
		{"C144 array", `{"type":"array"}`},
		{"C144 array items", `{"type":"array","items":{"type":"array","items":{}}}`},
		{"C144 string", `{"type":"string","enum":["a","b"],"const":"a"}`},
		{"C144 number", `{"type":"number","enum":[1.5,2e300,0]}`},
		{"C144 integer", `{"type":"integer","enum":[1,2.0,1e300],"const":2}`},
		{"C144 boolean", `{"type":"boolean","const":false}`},
		{"C144 null", `{"type":"null","enum":[null],"const":null}`},
		{"C144 oneOf", `{"oneOf":[{"type":"string"},{"type":"null"}],"description":"maybe"}`},
		{"C144 nested oneOf", `{"type":"object","properties":{"v":{"oneOf":[{"oneOf":[{"type":"string"},{"type":"number"}]},{"type":"null"}]}}}`},
		{"C154 sibling reuse", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}`},
		{"property named __proto__", `{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Compile(parse(t, tt.schema))
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			want, _ := jsonvalue.Canonicalize(tt.schema)
			if s.JSON() != want || s.Value().Canonical() != want {
				t.Errorf("JSON() = %s, want %s", s.JSON(), want)
			}
		})
	}
}

func TestCompileRejects(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []string
	}{
		{"C146 null", `null`, []string{"schema must be a schema object"}},
		{"C146 array", `[]`, []string{"schema must be a schema object"}},
		{"C146 string", `"no"`, []string{"schema must be a schema object"}},
		{"C146 type array", `{"type":["string","null"]}`, []string{
			"schema.type must be a single type string (type arrays are not supported)"}},
		{"C146 type not a string", `{"type":1}`, []string{"schema" + typeList}},

		{"C147 one branch", `{"oneOf":[{"type":"string"}]}`, []string{
			"schema.oneOf must be an array of at least two schemas"}},
		{"C147 empty", `{"oneOf":[]}`, []string{"schema.oneOf must be an array of at least two schemas"}},
		{"C147 not an array", `{"oneOf":{"0":{},"1":{}}}`, []string{
			"schema.oneOf must be an array of at least two schemas"}},
		{"C147 sibling keyword", `{"oneOf":[{"type":"string"},{"type":"null"}],"const":"a"}`, []string{
			"schema.const is not supported beside oneOf"}},
		{"C147 invalid branch", `{"oneOf":[{"type":"string"},{"type":"nope"}]}`, []string{
			"schema.oneOf[1]" + typeList}},
		{"C147 branch not an object", `{"oneOf":[1,{"type":"null"}]}`, []string{
			"schema.oneOf[0] must be a schema object"}},
		{"C147 branches before siblings", `{"enum":[1],"oneOf":[{"type":"x"},{}],"items":{}}`, []string{
			"schema.oneOf[0]" + typeList,
			"schema.items is not supported beside oneOf",
			"schema.enum is not supported beside oneOf"}},
		{"C147 short oneOf then siblings", `{"oneOf":[{}],"properties":{}}`, []string{
			"schema.oneOf must be an array of at least two schemas",
			"schema.properties is not supported beside oneOf"}},
		{"C147 type and oneOf", `{"anyOf":[],"type":"string","oneOf":[{},{}],"title":1}`, []string{
			"schema.anyOf" + subset,
			"schema.title must be a string",
			"schema cannot declare both type and oneOf"}},

		{"C148 anyOf", `{"type":"string","anyOf":[]}`, []string{"schema.anyOf" + subset}},
		{"C148 allOf", `{"type":"string","allOf":[]}`, []string{"schema.allOf" + subset}},
		{"C148 not", `{"type":"string","not":{}}`, []string{"schema.not" + subset}},
		{"C148 pattern", `{"type":"string","pattern":"^a"}`, []string{"schema.pattern" + subset}},
		{"C148 minimum", `{"type":"number","minimum":0}`, []string{"schema.minimum" + subset}},
		{"C148 maxLength", `{"type":"string","maxLength":3}`, []string{"schema.maxLength" + subset}},
		{"C148 $ref", `{"$ref":"#/defs/a"}`, []string{"schema.$ref" + subset}},
		{"C148 unknown keywords in document order", `{"b":1,"type":"null","a":2}`, []string{
			"schema.b" + subset, "schema.a" + subset}},
		{"C148 properties on string", `{"type":"string","properties":{}}`, []string{
			`schema.properties is not supported on type "string"`}},
		{"C148 items on object", `{"type":"object","items":{}}`, []string{
			`schema.items is not supported on type "object"`}},
		{"C148 enum on array", `{"type":"array","enum":[[]]}`, []string{
			`schema.enum is not supported on type "array"`}},
		{"C148 misplaced in fixed order", `{"type":"boolean","items":{},"required":[],"const":true}`, []string{
			`schema.required is not supported on type "boolean"`,
			`schema.items is not supported on type "boolean"`}},
		{"C148 requires type or oneOf in fixed order",
			`{"const":1,"enum":[1],"items":{},"additionalProperties":false,"required":[],"properties":{}}`, []string{
				"schema.properties requires type or oneOf",
				"schema.required requires type or oneOf",
				"schema.additionalProperties requires type or oneOf",
				"schema.items requires type or oneOf",
				"schema.enum requires type or oneOf",
				"schema.const requires type or oneOf"}},

		{"C149 independent violations",
			`{"type":"object","properties":{"a":{"type":"nope"}},"required":["missing"],"additionalProperties":"no"}`, []string{
				"schema.properties.a" + typeList,
				`schema.required names "missing" which is not in properties`,
				"schema.additionalProperties must be a boolean"}},

		{"C150 properties not an object", `{"type":"object","properties":[]}`, []string{
			"schema.properties must be an object of schemas"}},
		{"C150 property not a schema", `{"type":"object","properties":{"a":1,"b":{"type":"string"},"c":null}}`, []string{
			"schema.properties.a must be a schema object",
			"schema.properties.c must be a schema object"}},
		{"C150 required not an array", `{"type":"object","required":"a"}`, []string{
			"schema.required must be an array of strings"}},
		{"C150 required not strings", `{"type":"object","properties":{"a":{}},"required":["a",1]}`, []string{
			"schema.required must be an array of strings"}},
		{"C150 required names missing", `{"type":"object","properties":{"a":{}},"required":["a","missing"]}`, []string{
			`schema.required names "missing" which is not in properties`}},
		{"C150 required without properties", `{"type":"object","required":["x"]}`, []string{
			`schema.required names "x" which is not in properties`}},
		{"C150 bad properties and required", `{"type":"object","required":["x"],"properties":[]}`, []string{
			"schema.properties must be an object of schemas",
			`schema.required names "x" which is not in properties`}},
		{"C150 additionalProperties schema", `{"type":"object","additionalProperties":{}}`, []string{
			"schema.additionalProperties must be a boolean"}},
		{"C150 nested path", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"b.c":{"type":"x"}}}}}}`, []string{
			"schema.properties.a.items.properties.b.c" + typeList}},

		{"C151 empty enum", `{"type":"string","enum":[]}`, []string{
			"schema.enum must be a non-empty array of string values"}},
		{"C151 enum not an array", `{"type":"string","enum":"a"}`, []string{
			"schema.enum must be a non-empty array of string values"}},
		{"C151 enum wrong type", `{"type":"string","enum":["a",1]}`, []string{
			"schema.enum must be a non-empty array of string values"}},
		{"C151 integer enum with 1.5", `{"type":"integer","enum":[1,1.5]}`, []string{
			"schema.enum must be a non-empty array of integer values"}},
		{"C151 integer const 1.5", `{"type":"integer","const":1.5}`, []string{
			"schema.const must be a integer value"}},
		{"C151 const wrong type", `{"type":"boolean","const":"true"}`, []string{
			"schema.const must be a boolean value"}},
		{"C151 const not in enum", `{"type":"string","enum":["a","b"],"const":"c"}`, []string{
			"schema.const must be one of schema.enum when both are declared"}},
		{"C151 invalid enum skips membership", `{"type":"string","enum":[1],"const":"a"}`, []string{
			"schema.enum must be a non-empty array of string values"}},
		{"C151 both invalid", `{"type":"null","enum":[0],"const":false}`, []string{
			"schema.enum must be a non-empty array of null values",
			"schema.const must be a null value"}},

		{"C152 description type", `{"description":1}`, []string{"schema.description must be a string"}},
		{"C152 title type", `{"type":"string","title":null}`, []string{"schema.title must be a string"}},

		{"C156 required toString", `{"type":"object","properties":{},"required":["toString"]}`, []string{
			`schema.required names "toString" which is not in properties`}},

		{"C114 type-mismatched enum", `{"type":"object","properties":{"n":{"type":"number","enum":["1"]}}}`, []string{
			"schema.properties.n.enum must be a non-empty array of number values"}},
		{"C115 unknown type", `{"type":"object","properties":{"x":{"type":"tuple"}}}`, []string{
			"schema.properties.x" + typeList}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Compile(parse(t, tt.schema))
			if s != nil {
				t.Errorf("Compile returned a schema with an error")
			}
			var schemaErr *schema.Error
			if !errors.As(err, &schemaErr) {
				t.Fatalf("Compile error = %v, want *schema.Error", err)
			}
			if got := strings.Join(schemaErr.Violations, "\n"); got != strings.Join(tt.want, "\n") {
				t.Errorf("violations:\n%s\nwant:\n%s", got, strings.Join(tt.want, "\n"))
			}
			if got, want := err.Error(), "unsupported JSON schema: "+strings.Join(tt.want, "; "); got != want {
				t.Errorf("Error() = %q, want %q", got, want)
			}
			if schemaErr.ErrorCode() != "UNSUPPORTED_SCHEMA" {
				t.Errorf("code = %s, want UNSUPPORTED_SCHEMA", schemaErr.ErrorCode())
			}
		})
	}
}

func TestCompileZeroValue(t *testing.T) {
	_, err := schema.Compile(jsonvalue.Value{})
	if err == nil || err.Error() != "unsupported JSON schema: schema must be a schema object" {
		t.Errorf("Compile(zero Value) = %v", err)
	}
}

func TestCompileObject(t *testing.T) {
	tests := []struct {
		name, schema string
		want         string // "" means accepted
	}{
		{"C145 object root", `{"type":"object","properties":{"a":{"type":"array"}}}`, ""},
		{"C145 array root", `{"type":"array"}`, `schema.type must be "object" (structured output is object-rooted)`},
		{"C145 any root", `{}`, `schema.type must be "object" (structured output is object-rooted)`},
		{"C145 oneOf root", `{"oneOf":[{"type":"object"},{"type":"null"}]}`, `schema.type must be "object" (structured output is object-rooted)`},
		{"C145 subset violations only", `{"type":"array","properties":{}}`, `schema.properties is not supported on type "array"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := parse(t, tt.schema)
			if _, err := schema.Compile(v); err != nil && tt.want != `schema.properties is not supported on type "array"` {
				t.Errorf("Compile rejected an object-guard-only case: %v", err)
			}
			s, err := schema.CompileObject(v)
			if tt.want == "" {
				if err != nil || s == nil {
					t.Fatalf("CompileObject: %v", err)
				}
				return
			}
			var schemaErr *schema.Error
			if !errors.As(err, &schemaErr) || len(schemaErr.Violations) != 1 || schemaErr.Violations[0] != tt.want {
				t.Errorf("CompileObject error = %v, want %s", err, tt.want)
			}
		})
	}
}

func TestCompileText(t *testing.T) {
	if _, err := schema.CompileText(`{"type":"string"}`); err != nil {
		t.Fatalf("CompileText: %v", err)
	}
	var syntax *jsonvalue.SyntaxError
	if _, err := schema.CompileText(`{"type":`); !errors.As(err, &syntax) {
		t.Errorf("CompileText(truncated) = %v, want a wrapped *jsonvalue.SyntaxError", err)
	}
	var schemaErr *schema.Error
	if _, err := schema.CompileText(`{"type":"tuple"}`); !errors.As(err, &schemaErr) {
		t.Errorf("CompileText(unknown type) = %v, want *schema.Error", err)
	}
}

// TestCompileTextNotLossless covers the lossless halves of C151, C152 and
// C166: -0, NaN and Infinity never reach the subset check because Parse
// rejects them.
func TestCompileTextNotLossless(t *testing.T) {
	tests := []struct {
		name, schema string
		lossless     bool // the error wraps ErrNotLossless, else it is a syntax error
	}{
		{"C151 -0 in enum", `{"type":"number","enum":[1,-0]}`, true},
		{"C151 -0 const", `{"type":"number","const":-0.0}`, true},
		{"C152 -0 default", `{"default":{"x":[-0e3]}}`, true},
		{"C152 overflowing example", `{"examples":[1e400]}`, true},
		{"C151 NaN enum", `{"type":"number","enum":[NaN]}`, false},
		{"C152 Infinity default", `{"default":Infinity}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.CompileText(tt.schema)
			var syntax *jsonvalue.SyntaxError
			var schemaErr *schema.Error
			switch {
			case errors.As(err, &schemaErr):
				t.Errorf("CompileText = %v, want a parse error", err)
			case tt.lossless && !errors.Is(err, jsonvalue.ErrNotLossless):
				t.Errorf("CompileText = %v, want ErrNotLossless", err)
			case !tt.lossless && !errors.As(err, &syntax):
				t.Errorf("CompileText = %v, want *jsonvalue.SyntaxError", err)
			}
		})
	}
}

func TestMustCompileText(t *testing.T) {
	if s := schema.MustCompileText(`{"type":"null"}`); s.JSON() != `{"type":"null"}` {
		t.Errorf("JSON() = %s", s.JSON())
	}
	defer func() {
		if recover() == nil {
			t.Error("MustCompileText did not panic")
		}
	}()
	schema.MustCompileText(`{"type":"tuple"}`)
}
