package jsonvalue_test

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
)

// args10 is a typical 10-property tool-argument object.
const args10 = `{"file_path":"/home/dev/project/internal/server/handler.go","offset":120,"limit":400,` +
	`"replace_all":false,"old_string":"func (s *Server) Handle(ctx context.Context) error {",` +
	`"new_string":"func (s *Server) Handle(ctx context.Context, req *Request) error {\n\t// TODO\n",` +
	`"description":"Pass the request through","timeout":120000,"tags":["edit","go"],"mode":"fast"}`

func BenchmarkParse10Props(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(args10)))
	for b.Loop() {
		v, err := jsonvalue.Parse(args10)
		if err != nil || v.Len() != 10 {
			b.Fatal(v.Len(), err)
		}
	}
}

func BenchmarkCanonicalize10Props(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(args10)))
	for b.Loop() {
		if _, err := jsonvalue.Canonicalize(args10); err != nil {
			b.Fatal(err)
		}
	}
}
