package schema_test

import (
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/schema"
)

func compile(t testing.TB, text string) *schema.Schema {
	t.Helper()
	s, err := schema.CompileText(text)
	if err != nil {
		t.Fatalf("CompileText(%s): %v", text, err)
	}
	return s
}

type validateCase struct {
	name   string
	schema string
	value  string
	want   []string
}

func runValidateCases(t *testing.T, root string, tests []validateCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := compile(t, tt.schema).Validate(parse(t, tt.value), root)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Validate(%s, %q):\n%s\nwant:\n%s", tt.value, root, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if len(tt.want) == 0 && got != nil {
				t.Errorf("valid value gave non-nil %#v", got)
			}
		})
	}
}

// TestValidateValue ports the validateJsonSchemaValue cases, whose root
// label is "value".
func TestValidateValue(t *testing.T) {
	const (
		obj    = `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"object","properties":{"c":{"type":"number"}},"required":["c"]}},"required":["a","b"],"additionalProperties":false}`
		number = `{"type":"number"}`
		intArr = `{"type":"array","items":{"type":"integer"}}`
		strOrN = `{"oneOf":[{"type":"string"},{"type":"null"}]}`
		numInt = `{"oneOf":[{"type":"number"},{"type":"integer"}]}`
	)
	runValidateCases(t, "value", []validateCase{
		{"C157 scalar root", `{"type":"string"}`, `"x"`, nil},
		{"C157 array root", `{"type":"array","items":{"type":"string"}}`, `["a","b"]`, nil},
		{"C157 object root", obj, `{"a":"x","b":{"c":1}}`, nil},
		{"C157 null root", `{"type":"null"}`, `null`, nil},
		{"C157 null root mismatch", `{"type":"null"}`, `0`, []string{`"value" must be null`}},

		{"C158 string", `{"type":"string"}`, `1`, []string{`"value" must be a string`}},
		{"C158 number", number, `"1"`, []string{`"value" must be a number`}},
		{"C158 number null", number, `null`, []string{`"value" must be a number`}},
		{"C158 integer 1.5", `{"type":"integer"}`, `1.5`, []string{`"value" must be an integer`}},
		{"C158 integer non-number", `{"type":"integer"}`, `"1"`, []string{`"value" must be an integer`}},
		{"C158 integer 2.0", `{"type":"integer"}`, `2.0`, nil},
		{"C158 integer 1e300", `{"type":"integer"}`, `1e300`, nil},
		{"C158 boolean", `{"type":"boolean"}`, `0`, []string{`"value" must be a boolean`}},
		{"C158 object", `{"type":"object"}`, `[]`, []string{`"value" must be an object`}},
		{"C158 array", `{"type":"array"}`, `{}`, []string{`"value" must be an array`}},

		{"C159 enum first", `{"type":"string","enum":["a","b"],"const":"a"}`, `"c"`, []string{`"value" must be one of ["a","b"]`}},
		{"C159 then const", `{"type":"string","enum":["a","b"],"const":"a"}`, `"b"`, []string{`"value" must be "a"`}},
		{"C159 both hold", `{"type":"string","enum":["a","b"],"const":"a"}`, `"a"`, nil},
		{"C159 type before enum", `{"type":"string","enum":["a"]}`, `1`, []string{`"value" must be a string`}},
		{"C159 numeric enum", `{"type":"number","enum":[1,2.5,1e21]}`, `3`, []string{`"value" must be one of [1,2.5,1e+21]`}},
		{"C159 numeric enum equal after normalizing", `{"type":"number","enum":[1e2]}`, `100.0`, nil},
		{"C159 null const", `{"type":"null","const":null}`, `null`, nil},
		{"C159 boolean const", `{"type":"boolean","const":true}`, `false`, []string{`"value" must be true`}},
		{"C159 escaped enum text", `{"type":"string","enum":["a\"b","<\u2028>"]}`, `"x"`, []string{`"value" must be one of ["a\"b","<\u2028>"]`}},

		{"C160 required nested and closed", obj, `{"x":1,"b":{"c":"no"},"y":2}`, []string{
			`missing required property "value.a"`,
			`"value.b.c" must be a number`,
			`"value.x" is not a declared property (additionalProperties: false)`,
			`"value.y" is not a declared property (additionalProperties: false)`}},
		{"C160 missing in required order", obj, `{}`, []string{
			`missing required property "value.a"`,
			`missing required property "value.b"`}},
		{"C160 children in properties order", obj, `{"b":{"c":true},"a":1}`, []string{
			`"value.a" must be a string`,
			`"value.b.c" must be a number`}},
		{"C160 open by default", `{"type":"object","properties":{"a":{"type":"string"}}}`, `{"a":"x","extra":1}`, nil},
		{"C160 explicitly open", `{"type":"object","properties":{},"additionalProperties":true}`, `{"extra":1}`, nil},
		{"C160 closed without properties", `{"type":"object","additionalProperties":false}`, `{"a":1}`, []string{
			`"value.a" is not a declared property (additionalProperties: false)`}},
		{"C160 duplicate key validated once", obj, `{"a":1,"b":{"c":1},"a":"x"}`, nil},

		{"C161 not an object", `{"type":"object"}`, `"x"`, []string{`"value" must be an object`}},
		{"C161 absent key is missing", `{"type":"object","properties":{"x":{}},"required":["x"]}`, `{"y":null}`, []string{
			`missing required property "value.x"`}},
		{"C161 null is present", `{"type":"object","properties":{"x":{}},"required":["x"]}`, `{"x":null}`, nil},

		{"C163 array items", intArr, `[1,1.5,"x",2]`, []string{
			`"value[1]" must be an integer`,
			`"value[2]" must be an integer`}},
		{"C163 untyped items", `{"type":"array"}`, `[1,"x",{}]`, nil},
		{"C163 nested arrays", `{"type":"array","items":` + intArr + `}`, `[[1],[2,"x"]]`, []string{
			`"value[1][1]" must be an integer`}},

		{"C164 matched 0", strOrN, `1`, []string{`"value" must match exactly one oneOf branch (matched 0)`}},
		{"C164 matched 2", numInt, `1`, []string{`"value" must match exactly one oneOf branch (matched 2)`}},
		{"C164 1.5 matches number only", numInt, `1.5`, nil},
		{"C164 branch errors not reported", `{"oneOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"null"}]}`, `{"a":1}`, []string{
			`"value" must match exactly one oneOf branch (matched 0)`}},
		{"C164 nested oneOf", `{"type":"object","properties":{"v":` + strOrN + `}}`, `{"v":[]}`, []string{
			`"value.v" must match exactly one oneOf branch (matched 0)`}},
		{"C164 three overlapping", `{"oneOf":[{},{"type":"number"},{"type":"integer"}]}`, `3`, []string{
			`"value" must match exactly one oneOf branch (matched 3)`}},

		{"C166 any object", `{}`, `{"a":[1,{"b":null}]}`, nil},
		{"C166 any scalar", `{"description":"anything"}`, `"x"`, nil},
		{"C166 any items", `{"type":"array","items":{}}`, `[null,true,1,"s",[],{}]`, nil},
	})
}

// TestValidateArguments ports the validateArgs cases (§1.4): the root label
// is empty, rendered as "arguments", and nested paths have no leading dot.
// The schemas are what the parameter DSL emits: an open object root.
func TestValidateArguments(t *testing.T) {
	const (
		path   = `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`
		types  = `{"type":"object","properties":{"s":{"type":"string"},"n":{"type":"number"},"b":{"type":"boolean"}}}`
		color  = `{"type":"object","properties":{"color":{"type":"string","enum":["red","green"]},"n":{"type":"number","enum":[1,2]}}}`
		nested = `{"type":"object","properties":{"config":{"type":"object","properties":{"host":{"type":"string"}},"required":["host"],"additionalProperties":false},"bag":{"type":"object"}}}`
		tags   = `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}}}`
		server = `{"type":"object","properties":{"servers":{"type":"array","items":{"type":"object","properties":{"host":{"type":"string"}},"required":["host"]}}}}`
	)
	runValidateCases(t, "", []validateCase{
		{"C108 valid", path, `{"path":"/tmp/a"}`, nil},
		{"C108 null", path, `null`, []string{`"arguments" must be an object`}},
		{"C108 string", path, `"nope"`, []string{`"arguments" must be an object`}},
		{"C108 array", path, `[]`, []string{`"arguments" must be an object`}},
		{"C109 missing", path, `{}`, []string{`missing required property "path"`}},
		{"C110 extra keys allowed", path, `{"path":"/a","extra":true}`, nil},
		{"C111 defaults not applied", `{"type":"object","properties":{"n":{"type":"number","default":5}},"required":["n"]}`, `{}`, []string{
			`missing required property "n"`}},
		{"C112 string", types, `{"s":1}`, []string{`"s" must be a string`}},
		{"C112 number", types, `{"n":"1"}`, []string{`"n" must be a number`}},
		{"C112 boolean", types, `{"b":"true"}`, []string{`"b" must be a boolean`}},
		{"C112 all three in properties order", types, `{"b":0,"n":false,"s":null}`, []string{
			`"s" must be a string`, `"n" must be a number`, `"b" must be a boolean`}},
		{"C113 enum", color, `{"color":"blue"}`, []string{`"color" must be one of ["red","green"]`}},
		{"C114 numeric enum", color, `{"n":3}`, []string{`"n" must be one of [1,2]`}},
		{"C116 nested missing", nested, `{"config":{}}`, []string{`missing required property "config.host"`}},
		{"C116 nested closed", nested, `{"config":{"host":"h","port":1}}`, []string{
			`"config.port" is not a declared property (additionalProperties: false)`}},
		{"C116 not an object", nested, `{"bag":[]}`, []string{`"bag" must be an object`}},
		{"C117 element", tags, `{"tags":["a",1]}`, []string{`"tags[1]" must be a string`}},
		{"C117 not an array", tags, `{"tags":"a"}`, []string{`"tags" must be an array`}},
		{"C118 element property", server, `{"servers":[{"host":"a"},{}]}`, []string{`missing required property "servers[1].host"`}},
		{"array root index path", `{"type":"array","items":{"type":"string"}}`, `[1]`, []string{`"[0]" must be a string`}},
	})
}

func TestValidateZeroValue(t *testing.T) {
	tests := []struct {
		schema string
		want   string
	}{
		{`{}`, `"value" must be a lossless JSON value`},
		{`{"type":"object"}`, `"value" must be an object`},
		{`{"type":"string"}`, `"value" must be a string`},
		{`{"oneOf":[{},{"type":"null"}]}`, `"value" must match exactly one oneOf branch (matched 0)`},
	}
	for _, tt := range tests {
		t.Run(tt.schema, func(t *testing.T) {
			got := compile(t, tt.schema).Validate(jsonvalue.Value{}, "value")
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("Validate(zero Value) = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestValidateWideObject checks the indexed property lookup on schemas and
// values past the index thresholds.
func TestValidateWideObject(t *testing.T) {
	var props, value []string
	for i := range 40 {
		name := "p" + string(rune('A'+i%26)) + string(rune('a'+i/26))
		props = append(props, `"`+name+`":{"type":"integer"}`)
		value = append(value, `"`+name+`":1`)
	}
	s := compile(t, `{"type":"object","additionalProperties":false,"properties":{`+strings.Join(props, ",")+`}}`)
	v := parse(t, `{`+strings.Join(value, ",")+`,"zz":1,"pAa":"x"}`)
	want := []string{`"pAa" must be an integer`, `"zz" is not a declared property (additionalProperties: false)`}
	if got := s.Validate(v, ""); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Validate = %q, want %q", got, want)
	}
}
