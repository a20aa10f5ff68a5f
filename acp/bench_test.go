package acp_test

import (
	"bufio"
	"context"
	"io"
	"runtime"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
)

// BenchmarkServeLargeFrame serves one 31 MiB session/prompt (a prompt just
// under the 32 MiB line limit, as a pasted log or file makes) and waits
// for its answer: reading the line, decoding the request and its params,
// and calling the Agent. Besides -benchmem's B/op it reports, per byte of
// frame, the bytes allocated (alloc/frame) and the heap live while the
// Agent holds the decoded prompt (live/frame): the budget is about twice
// the frame.
//
//	go test ./acp -run '^$' -bench ServeLargeFrame -benchmem -count 5
func BenchmarkServeLargeFrame(b *testing.B) {
	const textBytes = 31 << 20
	frame := []byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"` +
		strings.Repeat("x", textBytes) + `"}]}}` + "\n")
	var liveInPrompt uint64
	agent := &fakeAgent{prompt: func(_ context.Context, _ *acp.Conn, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
		if len(req.Prompt) != 1 || req.Prompt[0].Text == nil || len(req.Prompt[0].Text.Text) != textBytes {
			b.Errorf("the agent got a prompt of the wrong shape")
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		liveInPrompt = max(liveInPrompt, ms.HeapAlloc)
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, nil
	}}
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	n := 0
	for b.Loop() {
		serveOneFrame(b, agent, frame)
		n++
	}
	b.StopTimer()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	size := float64(len(frame))
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/size, "alloc/frame")
	b.ReportMetric(float64(liveInPrompt-min(liveInPrompt, before.HeapAlloc))/size, "live/frame")
}

// initializeLine opens every connection.
var initializeLine = []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}` + "\n")

// serveOneFrame runs Serve over pipes, initializes, writes frame, waits
// for its answer and ends the connection.
func serveOneFrame(b *testing.B, agent *fakeAgent, frame []byte) {
	serverR, clientW := io.Pipe()
	clientR, serverW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- acp.Serve(context.Background(), serverR, serverW, agent.bind, acp.Options{}) }()
	go func() {
		_, _ = clientW.Write(initializeLine)
		_, _ = clientW.Write(frame)
	}()
	answers := bufio.NewReader(clientR)
	for range 2 {
		answer, err := answers.ReadString('\n')
		if err != nil || strings.Contains(answer, `"error"`) {
			b.Fatalf("answer %.200q, %v", answer, err)
		}
	}
	clientW.Close()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	serverW.Close()
}
