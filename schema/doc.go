// Package schema checks and applies the project's JSON Schema subset: the
// vocabulary tool outputs, structured output and tool arguments are
// validated with.
//
// The subset is type (one of object/array/string/number/integer/boolean/
// null), oneOf (two or more branches, exactly one must match), properties,
// required, additionalProperties (a boolean), items, type-correct scalar enum
// and const, and the annotations description, title, default and examples.
// Anything else is rejected at compile time rather than silently ignored.
//
//	s, err := schema.CompileText(`{"type":"object",
//		"properties":{"path":{"type":"string"},"color":{"type":"string","enum":["red","green"]}},
//		"required":["path"]}`)
//	if err != nil {
//		return err // *schema.Error lists every unsupported construct
//	}
//	args, err := jsonvalue.Parse(`{"color":"blue"}`)
//	...
//	for _, violation := range s.Validate(args, "") {
//		fmt.Println(violation)
//	}
//	// missing required property "path"
//	// "color" must be one of ["red","green"]
//
// Violation messages are written for the model, which reads them to fix its
// arguments; their wording is stable (tests pin it), but programs should
// route on Error.ErrorCode, not on the text.
package schema
