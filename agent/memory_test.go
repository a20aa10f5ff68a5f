package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// longSessionScript is a DSH_MODEL_SCRIPT of turns turns, each a step
// that thinks and calls a tool reporting output, then a step that thinks
// and answers: a few hundred words streamed word by word per turn.
func longSessionScript(t testing.TB, turns int) *llm.Scripted {
	t.Helper()
	words := strings.Repeat("the quick brown fox jumps over a lazy dog ", 25)
	var script strings.Builder
	enc := json.NewEncoder(&script)
	for i := range turns {
		args, _ := json.Marshal(workArgs{ID: fmt.Sprint(i), Output: "line of output\n"})
		steps := []map[string]any{
			{"reasoning": "plan: " + words, "text": "Let me look.", "tool_calls": []map[string]any{{"name": "par", "arguments": json.RawMessage(args)}}},
			{"reasoning": "done: " + words, "text": "Here is the answer: " + words},
		}
		for _, s := range steps {
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	model, err := llm.ReadScript(strings.NewReader(script.String()), "long-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return model
}

// conversationBytes is the text of the conversation itself: what the user
// and the model said, the model's reasoning, the tool calls' arguments,
// their output and results.
func conversationBytes(events []session.Event) int {
	n := 0
	for _, ev := range events {
		switch p := ev.Payload.(type) {
		case session.UserMessage:
			n += len(presentation.JoinText(p.Content))
		case session.AssistantMessage:
			n += len(p.Text) + len(p.Reasoning)
			for _, c := range p.ToolCalls {
				n += len(c.ID) + len(c.Name) + len(c.Arguments)
			}
		case session.ToolOutput:
			n += len(p.Output)
		case session.ToolResult:
			n += len(presentation.JoinText(p.Content))
		}
	}
	return n
}

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestMemoryStaysFlatOverALongSession runs 500 scripted turns and checks
// that what a session keeps grows with the conversation and no faster:
// per turn, at most a few times the conversation's own text (the log
// holds it as streamed and as whole messages) plus a small constant.
// Before, every streamed word stayed an event of its own and the scripted
// model kept every request with its whole history.
func TestMemoryStaysFlatOverALongSession(t *testing.T) {
	if testing.Short() {
		t.Skip("500 turns")
	}
	const turns = 500
	h := newHarness(t, longSessionScript(t, turns+1), nil)
	h.work("par", true)
	ctx := context.Background()
	if _, err := h.prompt(ctx, "warm up"); err != nil {
		t.Fatal(err)
	}
	convBefore := conversationBytes(h.log.Events())
	before := heapInUse()
	for i := range turns {
		if reason, err := h.prompt(ctx, fmt.Sprintf("turn %d", i)); err != nil || reason != session.StopEndTurn {
			t.Fatalf("turn %d: %q, %v", i, reason, err)
		}
	}
	growth := heapInUse() - before
	conv := int64(conversationBytes(h.log.Events()) - convBefore)
	const factor, perTurn = 4, 4 << 10
	t.Logf("per turn: heap +%d B, conversation %d B, %d events", growth/turns, conv/turns, h.log.Len()/(turns+1))
	if limit := factor*conv + turns*perTurn; growth > limit {
		t.Errorf("the heap grew %d B over %d turns (%d B a turn) for %d B of conversation (%d B a turn); want at most %d×conversation + %d B a turn",
			growth, turns, growth/turns, conv, conv/turns, factor, perTurn)
	}
}

// BenchmarkSession runs a session of 100 turns per op, each turn a tool
// step and an answer streamed word by word, and reports what the session
// keeps per turn (retained-B/turn) next to the conversation text a turn
// adds (conversation-B/turn).
func BenchmarkSession(b *testing.B) {
	const turns = 100
	words := strings.Repeat("the quick brown fox jumps over a lazy dog ", 25)
	var answer []llm.Event
	for _, w := range strings.SplitAfter(words, " ") {
		answer = append(answer, llm.TextDelta{Text: w})
	}
	answer = append(answer, llm.Finish{Reason: llm.FinishStop})
	b.ReportAllocs()
	var retained, conv int64
	for b.Loop() {
		requests := 0
		model := providerFunc(func(ctx context.Context, _ llm.Request) (*llm.Stream, error) {
			requests++
			if requests%2 == 1 {
				return llm.StreamOf(ctx, llm.ReasoningDelta{Text: "plan"},
					llm.ToolCallDelta{Index: 0, ID: fmt.Sprint("call_", requests), Name: "par", Arguments: `{"id":"a","output":"out\n"}`},
					llm.Finish{Reason: llm.FinishToolCalls}), nil
			}
			return llm.StreamOf(ctx, answer...), nil
		})
		h := newHarness(b, model, nil)
		h.work("par", true)
		b.StopTimer()
		before := heapInUse()
		b.StartTimer()
		for range turns {
			if _, err := h.prompt(context.Background(), "go"); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		retained += heapInUse() - before
		conv += int64(conversationBytes(h.log.Events()))
		b.StartTimer()
	}
	n := float64(b.N * turns)
	b.ReportMetric(float64(retained)/n, "retained-B/turn")
	b.ReportMetric(float64(conv)/n, "conversation-B/turn")
}
