package schema_test

import (
	"errors"
	"fmt"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/schema"
)

func ExampleCompileText() {
	s, err := schema.CompileText(`{"type":"object",
		"properties":{"path":{"type":"string"},"color":{"type":"string","enum":["red","green"]}},
		"required":["path"]}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	args, _ := jsonvalue.Parse(`{"color":"blue","extra":true}`)
	for _, violation := range s.Validate(args, "") {
		fmt.Println(violation)
	}
	// Output:
	// missing required property "path"
	// "color" must be one of ["red","green"]
}

func ExampleCompile() {
	v, _ := jsonvalue.Parse(`{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n","m"]}`)
	_, err := schema.Compile(v)
	var schemaErr *schema.Error
	if errors.As(err, &schemaErr) {
		fmt.Println(schemaErr.ErrorCode())
		for _, violation := range schemaErr.Violations {
			fmt.Println(violation)
		}
	}
	// Output:
	// UNSUPPORTED_SCHEMA
	// schema.properties.n.minimum is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)
	// schema.required names "m" which is not in properties
}

func ExampleCompileObject() {
	v, _ := jsonvalue.Parse(`{"type":"array","items":{"type":"string"}}`)
	_, err := schema.CompileObject(v)
	fmt.Println(err)
	// Output:
	// unsupported JSON schema: schema.type must be "object" (structured output is object-rooted)
}

func ExampleSchema_Validate() {
	s := schema.MustCompileText(`{"type":"object","additionalProperties":false,
		"properties":{"items":{"type":"array","items":{"oneOf":[{"type":"string"},{"type":"null"}]}}}}`)
	value, _ := jsonvalue.Parse(`{"items":["a",null,3],"note":"x"}`)
	for _, violation := range s.Validate(value, "value") {
		fmt.Println(violation)
	}
	// Output:
	// "value.items[2]" must match exactly one oneOf branch (matched 0)
	// "value.note" is not a declared property (additionalProperties: false)
}
