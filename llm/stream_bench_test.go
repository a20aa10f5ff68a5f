package llm_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// BenchmarkOpenAIStreamDelta is the client's cost per streamed text delta:
// SSE framing, chunk decoding and the Stream's bookkeeping, over an
// in-memory response of 2,000 DeepSeek-shaped chunks (no network).
//
//	go test -run '^$' -bench OpenAIStreamDelta -benchmem ./llm
func BenchmarkOpenAIStreamDelta(b *testing.B) {
	const deltas = 2000
	var body bytes.Buffer
	for range deltas {
		fmt.Fprintf(&body, "data: %s\n\n", `{"id":"5f1a","object":"chat.completion.chunk","created":1764500000,"model":"deepseek-v4-flash",`+
			`"system_fingerprint":"fp_ffc7281d48_prod0820_fp8_kvcache","choices":[{"index":0,"delta":{"content":"tok "},"logprobs":null,"finish_reason":null}]}`)
	}
	fmt.Fprintf(&body, "data: %s\n\n", chunk(`{"content":""}`, "stop"))
	fmt.Fprintf(&body, "data: %s\n\ndata: [DONE]\n\n", usageChunk(`{"prompt_tokens":1,"completion_tokens":2000,"total_tokens":2001}`))
	sse := body.Bytes()
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{
			StatusCode: http.StatusOK,
			Header:     http.Header{"Content-Type": []string{"text/event-stream"}},
			Body:       io.NopCloser(bytes.NewReader(sse)),
			Request:    r,
		}, nil
	})}
	p := llm.NewOpenAI(llm.Config{BaseURL: "http://model.invalid", APIKey: "sk-bench", HTTPClient: client})
	req := userRequest("hi")

	b.ReportAllocs()
	for b.Loop() {
		s, err := p.Stream(b.Context(), req)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for s.Next() {
			if d, ok := s.Event().(llm.TextDelta); ok {
				n += len(d.Text)
			}
		}
		if err := s.Err(); err != nil {
			b.Fatal(err)
		}
		if n != deltas*len("tok ") || !strings.HasPrefix(s.Response().Message.Content, "tok ") {
			b.Fatalf("read %d bytes of text", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*deltas), "ns/delta")
	b.ReportMetric(0, "ns/op")
}
