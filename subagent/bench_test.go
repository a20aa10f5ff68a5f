package subagent_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/session"
)

// benchTurn runs b.N parent turns, each in a fresh fixture (made with the
// timer stopped): the parent's first step is script, then it answers.
// Each child answers at once.
func benchTurn(b *testing.B, script llm.Message, children []string, measure func(f *fixture)) {
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		f := newFixture(b, fixtureOptions{})
		f.model.script("go", script, answer("done"))
		for _, c := range children {
			f.model.script(c, answer("answer to "+c))
		}
		if measure != nil {
			measure(f)
		}
		b.StartTimer()
		if reason, err := f.prompt(ctx, "go"); err != nil || reason != session.StopEndTurn {
			b.Fatalf("prompt = %v, %v", reason, err)
		}
	}
}

// BenchmarkDirectToolCall is the baseline: one turn whose model calls a
// read tool directly, then answers.
func BenchmarkDirectToolCall(b *testing.B) {
	benchTurn(b, calls(call("c1", "read", map[string]any{"path": "a.go"})), nil, nil)
}

// BenchmarkTask is one turn whose model hands one question to an explore
// child, which answers at once. start-to-request is the child's start
// (its SubagentStarted) to its first model request.
func BenchmarkTask(b *testing.B) {
	var (
		mu    sync.Mutex
		total time.Duration
		n     int
	)
	benchTurn(b, calls(call("t1", "task", map[string]any{"description": "d", "prompt": "q", "subagent_type": "explore"})), []string{"q"},
		func(f *fixture) {
			var started time.Time
			f.log.Subscribe(func(ev session.Event) {
				if _, ok := ev.Payload.(session.SubagentStarted); ok {
					mu.Lock()
					started = time.Now()
					mu.Unlock()
				}
			})
			f.model.hold = func(_ context.Context, route string) error {
				mu.Lock()
				defer mu.Unlock()
				if route == "q" && !started.IsZero() {
					total += time.Since(started)
					n++
					started = time.Time{}
				}
				return nil
			}
		})
	if n > 0 {
		b.ReportMetric(float64(total.Nanoseconds())/float64(n), "start-to-request-ns")
	}
}

// BenchmarkFourParallelExploreTasks is one turn whose model starts four
// explore children in one step, each answering at once.
func BenchmarkFourParallelExploreTasks(b *testing.B) {
	var tasks []llm.ToolCall
	var prompts []string
	for i := range 4 {
		p := fmt.Sprintf("q%d", i)
		prompts = append(prompts, p)
		tasks = append(tasks, call("t"+p, "task", map[string]any{"description": p, "prompt": p, "subagent_type": "explore"}))
	}
	benchTurn(b, calls(tasks...), prompts, nil)
}
