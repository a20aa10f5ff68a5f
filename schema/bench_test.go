package schema_test

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/schema"
)

// schema10 describes a typical 10-property tool-argument object.
const schema10 = `{"type":"object","properties":{` +
	`"file_path":{"type":"string","description":"Absolute path"},` +
	`"offset":{"type":"integer"},"limit":{"type":"integer"},` +
	`"replace_all":{"type":"boolean"},"old_string":{"type":"string"},"new_string":{"type":"string"},` +
	`"description":{"type":"string"},"timeout":{"type":"number"},` +
	`"tags":{"type":"array","items":{"type":"string"}},` +
	`"mode":{"type":"string","enum":["fast","safe"]}},` +
	`"required":["file_path","old_string","new_string"]}`

// args10 is a valid argument object for schema10.
const args10 = `{"file_path":"/home/dev/project/internal/server/handler.go","offset":120,"limit":400,` +
	`"replace_all":false,"old_string":"func (s *Server) Handle(ctx context.Context) error {",` +
	`"new_string":"func (s *Server) Handle(ctx context.Context, req *Request) error {\n\t// TODO\n",` +
	`"description":"Pass the request through","timeout":120000,"tags":["edit","go"],"mode":"fast"}`

// BenchmarkValidate10Props parses and validates a 10-property argument
// object; the project budget is 5 µs/op.
func BenchmarkValidate10Props(b *testing.B) {
	s := schema.MustCompileText(schema10)
	b.ReportAllocs()
	for b.Loop() {
		v, err := jsonvalue.Parse(args10)
		if err != nil {
			b.Fatal(err)
		}
		if violations := s.Validate(v, ""); violations != nil {
			b.Fatal(violations)
		}
	}
}

// BenchmarkValidateOnly10Props measures validation of an already parsed
// value.
func BenchmarkValidateOnly10Props(b *testing.B) {
	s := schema.MustCompileText(schema10)
	v, err := jsonvalue.Parse(args10)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if violations := s.Validate(v, ""); violations != nil {
			b.Fatal(violations)
		}
	}
}

// BenchmarkCompileDeepUnion compiles the deepest union chain Parse
// accepts and validates a value against it: the speed TestDeepUnionIsLinear
// guards the growth of.
func BenchmarkCompileDeepUnion(b *testing.B) {
	source := deepUnion(unionLevels, `{"type":"string"}`)
	v, err := jsonvalue.Parse(`"x"`)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := schema.CompileText(source)
		if err != nil {
			b.Fatal(err)
		}
		if violations := s.Validate(v, "value"); violations != nil {
			b.Fatal(violations)
		}
	}
}
