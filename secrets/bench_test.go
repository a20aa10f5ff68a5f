package secrets_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/secrets"
)

// benchRedactor hides as many values as a developer's shell commonly
// holds: a model key and a dozen tokens.
func benchRedactor() *secrets.Redactor {
	values := []string{"sk-0123456789abcdef0123456789abcdef"}
	for i := range 12 {
		values = append(values, fmt.Sprintf("token-%02d-Zq8wX2vNpL4rT6yB", i))
	}
	return secrets.NewRedactor(values...)
}

// frame is a session/update carrying 4 KiB of terminal output.
func frame(secret string) []byte {
	out := strings.Repeat("ok  example.com/pkg/sub 0.012s\n", 4096/31) + secret
	return []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","_meta":{"terminal_output":{"terminal_id":"call_1","data":` +
		fmt.Sprintf("%q", out) + `}}}}}`)
}

// BenchmarkRedactJSON is the cost of redacting one frame toward the
// editor: the common frame holds no secret; a rare one does.
//
//	go test -run '^$' -bench RedactJSON -benchmem ./secrets/
func BenchmarkRedactJSON(b *testing.B) {
	red := benchRedactor()
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"clean-4KiB", frame("")},
		{"secret-4KiB", frame("token-07-Zq8wX2vNpL4rT6yB")},
	} {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := red.JSON(tt.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRedactString is the cost of redacting a 4 KiB tool result
// toward the model.
func BenchmarkRedactString(b *testing.B) {
	red := benchRedactor()
	text := strings.Repeat("ok  example.com/pkg/sub 0.012s\n", 4096/31)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		_ = red.String(text)
	}
}
