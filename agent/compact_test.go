package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/session"
)

// windowModel is a fake server with a small context window. It counts a
// request's tokens the way the agent estimates them (a token per four
// bytes, four more per message and tool schema), reports that count as
// the usage of each answer, and notes every request that is not valid for
// an OpenAI-compatible server or does not fit its window. A request with
// tools is a step of the conversation: a user message last gets a tool
// call, a tool result last gets the answer. A request without tools is a
// summary request; onSummary, when set, answers it instead.
type windowModel struct {
	t      testing.TB
	window int64
	answer string

	mu        sync.Mutex
	problems  []string
	steps     int
	summaries int
	summary   string // the latest summary written
	inflate   int64  // added to the prompt tokens reported
	onSummary func(ctx context.Context, req llm.Request) (*llm.Stream, error)
}

func newWindowModel(t testing.TB, window int64) *windowModel {
	return &windowModel{t: t, window: window, answer: strings.Repeat("All good here, the change is in. ", 12)}
}

// limit is the largest prompt the agent may send with its defaults: 80 %
// of the window less an eighth of it for the completion.
func (w *windowModel) limit() int64 { return w.window*8/10 - w.window/8 }

func (w *windowModel) problem(format string, args ...any) {
	w.problems = append(w.problems, fmt.Sprintf(format, args...))
}

func (w *windowModel) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	prompt := countTokens(req)
	if len(req.Tools) == 0 {
		w.summaries++
		if prompt+int64(req.MaxTokens) > w.window {
			w.problem("summary request %d: %d prompt tokens + %d for the summary exceed the window of %d", w.summaries, prompt, req.MaxTokens, w.window)
		}
		if len(req.Messages) != 1 || req.Messages[0].Role != llm.RoleUser {
			w.problem("summary request %d is not one user message: %d messages", w.summaries, len(req.Messages))
		} else if w.summary != "" && !strings.Contains(req.Messages[0].Content, w.summary) {
			w.problem("summary request %d lacks the earlier summary", w.summaries)
		}
		if w.onSummary != nil {
			f := w.onSummary
			w.mu.Unlock()
			defer w.mu.Lock()
			return f(ctx, req)
		}
		w.summary = fmt.Sprintf("Summary number %d: the user asked for many small changes; all are done.", w.summaries)
		return llm.StreamOf(ctx, llm.TextDelta{Text: w.summary}, llm.Finish{Reason: llm.FinishStop},
			llm.UsageReport{Usage: llm.Usage{PromptTokens: prompt, CompletionTokens: 20}}), nil
	}
	w.steps++
	if prompt > w.limit() {
		w.problem("step %d: %d prompt tokens exceed the limit of %d", w.steps, prompt, w.limit())
	}
	if err := pairedCalls(req.Messages); err != nil {
		w.problem("step %d: %v", w.steps, err)
	}
	if w.summary != "" && (len(req.Messages) == 0 || !strings.Contains(req.Messages[0].Content, w.summary)) {
		w.problem("step %d: the first message does not hold the latest summary", w.steps)
	}
	usage := llm.UsageReport{Usage: llm.Usage{PromptTokens: prompt + w.inflate, CompletionTokens: 30}}
	if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleTool {
		return llm.StreamOf(ctx, llm.TextDelta{Text: w.answer}, llm.Finish{Reason: llm.FinishStop}, usage), nil
	}
	args, _ := json.Marshal(workArgs{ID: fmt.Sprint(w.steps)})
	return llm.StreamOf(ctx, llm.TextDelta{Text: "Let me make that change."},
		llm.ToolCallDelta{Index: 0, ID: fmt.Sprint("call_", w.steps), Name: "par", Arguments: string(args)},
		llm.Finish{Reason: llm.FinishToolCalls}, usage), nil
}

func (w *windowModel) report() (problems []string, steps, summaries int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.problems...), w.steps, w.summaries
}

// countTokens counts a request the way windowModel's server does.
func countTokens(req llm.Request) int64 {
	tokens := func(n int) int64 { return int64((n + 3) / 4) }
	n := tokens(len(req.System))
	for _, t := range req.Tools {
		n += 4 + tokens(len(t.Name)+len(t.Description)+len(t.Parameters))
	}
	for _, m := range req.Messages {
		b := len(m.Content) + len(m.Reasoning) + len(m.ToolCallID)
		for _, c := range m.ToolCalls {
			b += len(c.ID) + len(c.Name) + len(c.Arguments)
		}
		n += 4 + tokens(b)
	}
	return n
}

// pairedCalls checks what OpenAI-compatible servers require of a
// conversation: it opens with a user message, and every assistant tool
// call is answered by a tool message right after it, in order, and no tool
// message answers anything else.
func pairedCalls(msgs []llm.Message) error {
	if len(msgs) == 0 || msgs[0].Role != llm.RoleUser {
		return errors.New("the conversation does not open with a user message")
	}
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch {
		case m.Role == llm.RoleTool:
			return fmt.Errorf("message %d answers call %q, which is not right before it", i, m.ToolCallID)
		case m.Role == llm.RoleAssistant:
			for j, c := range m.ToolCalls {
				if k := i + 1 + j; k >= len(msgs) || msgs[k].Role != llm.RoleTool || msgs[k].ToolCallID != c.ID {
					return fmt.Errorf("call %q of message %d is not answered right after it", c.ID, i)
				}
			}
			i += len(m.ToolCalls)
		}
	}
	return nil
}

// windowHarness is a harness over w whose model has w's window.
func windowHarness(t testing.TB, w *windowModel, edit func(*agent.Options)) *harness {
	h := newHarness(t, w, func(o *agent.Options) {
		o.Model = func() agent.ModelInfo { return agent.ModelInfo{Name: "small", ContextWindow: w.window} }
		if edit != nil {
			edit(o)
		}
	})
	h.work("par", true)
	return h
}

func compactions(events []session.Event) []session.Compacted {
	var out []session.Compacted
	for _, ev := range events {
		if c, ok := ev.Payload.(session.Compacted); ok {
			out = append(out, c)
		}
	}
	return out
}

func TestLongSessionKeepsWorkingThroughCompaction(t *testing.T) {
	turns := 500
	if testing.Short() {
		turns = 60
	}
	w := newWindowModel(t, 4096)
	h := windowHarness(t, w, nil)
	for i := range turns {
		if reason, err := h.prompt(context.Background(), fmt.Sprintf("Please make change number %d.", i)); err != nil || reason != session.StopEndTurn {
			t.Fatalf("turn %d: %q, %v", i, reason, err)
		}
	}
	problems, steps, summaries := w.report()
	for _, p := range problems {
		t.Error(p)
	}
	if steps != 2*turns {
		t.Errorf("the model was asked %d times for %d turns, want %d", steps, turns, 2*turns)
	}
	events := h.log.Events()
	done := compactions(events)
	t.Logf("%d turns, %d compactions, %d events", turns, len(done), len(events))
	if len(done) < turns/20 || len(done) != summaries {
		t.Fatalf("%d compactions logged, %d summary requests, over %d turns", len(done), summaries, turns)
	}
	ends := map[int64]bool{}
	usages := 0
	for _, ev := range events {
		switch p := ev.Payload.(type) {
		case session.TurnEnded:
			ends[ev.Seq] = true
		case session.Usage:
			usages++
			if p.Model != "small" || p.ContextWindow != 4096 {
				t.Errorf("usage %+v does not name the model and its window", p)
			}
		}
	}
	if usages != steps+summaries {
		t.Errorf("%d usage events for %d requests", usages, steps+summaries)
	}
	for i, c := range done {
		if !ends[c.Through] {
			t.Errorf("compaction %d ends at event %d, which does not end a turn", i, c.Through)
		}
		if i > 0 && (c.Through <= done[i-1].Through || c.Turns <= done[i-1].Turns) {
			t.Errorf("compaction %d (%+v) does not go past the one before (%+v)", i, c, done[i-1])
		}
		if !strings.HasPrefix(c.Summary, "Summary number") {
			t.Errorf("compaction %d holds %q, not the model's summary", i, c.Summary)
		}
	}
	if last := done[len(done)-1]; last.Turns < turns/2 {
		t.Errorf("the latest summary covers %d of %d turns", last.Turns, turns)
	}
}

func TestServerCountsWinOverTheTextEstimate(t *testing.T) {
	w := newWindowModel(t, 4096)
	h := windowHarness(t, w, nil)
	for i := range 3 {
		if _, err := h.prompt(context.Background(), fmt.Sprint("turn ", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, summaries := w.report(); summaries != 0 {
		t.Fatalf("%d summaries before the conversation grew", summaries)
	}
	// The server now counts far more than the text suggests: the agent
	// compacts before the turn's second request.
	w.mu.Lock()
	w.inflate = w.limit()
	w.mu.Unlock()
	if reason, err := h.prompt(context.Background(), "turn 3"); err != nil || reason != session.StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	problems, _, summaries := w.report()
	for _, p := range problems {
		t.Error(p)
	}
	var turns []int
	for _, ev := range h.log.Events() {
		if _, ok := ev.Payload.(session.Compacted); ok {
			turns = append(turns, ev.Turn)
		}
	}
	if summaries != 1 || len(turns) != 1 || turns[0] != 4 {
		t.Errorf("%d summaries, compactions in turns %v; want one, in turn 4", summaries, turns)
	}
}

// syncBuffer is a log destination safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestAnOversizedTurnIsSentWithAWarning(t *testing.T) {
	tests := []struct {
		name          string
		before        int // small turns before the big one
		wantSummaries int
	}{
		{"nothing to compact", 0, 0},
		{"one completed turn is kept", 1, 0},
		{"older turns are compacted once", 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWindowModel(t, 4096)
			var logs syncBuffer
			h := windowHarness(t, w, func(o *agent.Options) {
				o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
			})
			for i := range tt.before {
				if _, err := h.prompt(context.Background(), fmt.Sprint("turn ", i)); err != nil {
					t.Fatal(err)
				}
			}
			huge := strings.Repeat("a very long prompt ", 1200) // about 5,700 tokens
			if reason, err := h.prompt(context.Background(), huge); err != nil || reason != session.StopEndTurn {
				t.Fatalf("Prompt = %q, %v", reason, err)
			}
			_, steps, summaries := w.report()
			if steps != 2*(tt.before+1) || summaries != tt.wantSummaries {
				t.Errorf("%d steps and %d summaries, want %d and %d", steps, summaries, 2*(tt.before+1), tt.wantSummaries)
			}
			if n := strings.Count(logs.String(), "level=WARN msg=\"the request may not fit"); n != 2 {
				t.Errorf("%d warnings, want one per request of the big turn:\n%s", n, logs.String())
			}
		})
	}
}

// fillUntilCompaction prompts small turns until the model is asked for a
// summary, and returns how that turn ended.
func fillUntilCompaction(t *testing.T, h *harness, w *windowModel, ctx context.Context) (session.StopReason, error) {
	t.Helper()
	for i := range 100 {
		reason, err := h.prompt(ctx, fmt.Sprint("turn ", i))
		if _, _, summaries := w.report(); summaries > 0 {
			return reason, err
		}
		if err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
	t.Fatal("no compaction in 100 turns")
	return "", nil
}

func TestAFailedSummaryFailsTheTurn(t *testing.T) {
	w := newWindowModel(t, 4096)
	w.onSummary = func(context.Context, llm.Request) (*llm.Stream, error) {
		return nil, errors.New("summary boom")
	}
	h := windowHarness(t, w, nil)
	reason, err := fillUntilCompaction(t, h, w, context.Background())
	if reason != session.StopError || err == nil || err.Error() != "turn failed: compacting the conversation: summary boom" {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	events := h.log.Events()
	end := events[len(events)-1].Payload.(session.TurnEnded)
	if end.Reason != session.StopError || end.Error != "compacting the conversation: summary boom" || len(compactions(events)) != 0 {
		t.Errorf("turn end %+v, compactions %v", end, compactions(events))
	}
}

func TestACancelledSummaryCancelsTheTurn(t *testing.T) {
	w := newWindowModel(t, 4096)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w.onSummary = func(sctx context.Context, _ llm.Request) (*llm.Stream, error) {
		cancel() // the user cancels while the summary is being written
		<-sctx.Done()
		return nil, fmt.Errorf("model stream stopped: %w", sctx.Err())
	}
	h := windowHarness(t, w, nil)
	reason, err := fillUntilCompaction(t, h, w, ctx)
	if reason != session.StopCancelled || err != nil {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	events := h.log.Events()
	if end := events[len(events)-1].Payload.(session.TurnEnded); end.Reason != session.StopCancelled || len(compactions(events)) != 0 {
		t.Errorf("turn end %+v, compactions %v", end, compactions(events))
	}
	_, stepsBefore, _ := w.report()

	// The next turn compacts and goes on.
	w.mu.Lock()
	w.onSummary = nil
	w.mu.Unlock()
	if reason, err := h.prompt(context.Background(), "again"); err != nil || reason != session.StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	problems, steps, summaries := w.report()
	for _, p := range problems {
		t.Error(p)
	}
	if steps != stepsBefore+2 || summaries != 2 || len(compactions(h.log.Events())) != 1 {
		t.Errorf("after the cancel: %d steps (%d before), %d summary requests, %d compactions", steps, stepsBefore, summaries, len(compactions(h.log.Events())))
	}
}

func TestUsageNamesTheModelOfEachRequest(t *testing.T) {
	requests := 0
	provider := providerFunc(func(ctx context.Context, _ llm.Request) (*llm.Stream, error) {
		requests++
		u := llm.UsageReport{Usage: llm.Usage{PromptTokens: 1000, CompletionTokens: 200, TotalTokens: 1200, CachedPromptTokens: 600}}
		if requests == 1 {
			return llm.StreamOf(ctx, llm.ToolCallDelta{Index: 0, ID: "call_a", Name: "par", Arguments: `{"id":"a"}`}, llm.Finish{Reason: llm.FinishToolCalls}, u), nil
		}
		return llm.StreamOf(ctx, llm.TextDelta{Text: "done"}, llm.Finish{Reason: llm.FinishStop}, u), nil
	})
	priced := agent.ModelInfo{Name: "priced", ContextWindow: 128000, Cost: func(u llm.Usage) (float64, string) {
		// Cache hits at 0.1 per million, misses at 1, output at 2.
		return (float64(u.CachedPromptTokens)*0.1 + float64(u.PromptTokens-u.CachedPromptTokens)*1 + float64(u.CompletionTokens)*2) / 1e6, "USD"
	}}
	picks := []agent.ModelInfo{priced, {Name: "free"}}
	h := newHarness(t, provider, func(o *agent.Options) {
		o.Model = func() agent.ModelInfo { return picks[min(requests, len(picks)-1)] }
	})
	h.work("par", true)
	if _, err := h.prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	var got []session.Usage
	for _, ev := range h.log.Events() {
		if u, ok := ev.Payload.(session.Usage); ok {
			got = append(got, u)
		}
	}
	// 600×0.1 + 400×1 + 200×2 = 860 per million.
	want := []session.Usage{
		{PromptTokens: 1000, CompletionTokens: 200, TotalTokens: 1200, CachedPromptTokens: 600, Model: "priced", ContextWindow: 128000, Cost: 860e-6, Currency: "USD"},
		{PromptTokens: 1000, CompletionTokens: 200, TotalTokens: 1200, CachedPromptTokens: 600, Model: "free"},
	}
	if len(got) != len(want) {
		t.Fatalf("usage events %+v, want %+v", got, want)
	}
	for i := range want {
		if g := got[i]; g.Cost-want[i].Cost > 1e-12 || want[i].Cost-g.Cost > 1e-12 {
			t.Errorf("usage %d costs %v, want %v", i, g.Cost, want[i].Cost)
		}
		got[i].Cost = want[i].Cost
		if got[i] != want[i] {
			t.Errorf("usage %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestCompactAtMustBeAPart(t *testing.T) {
	for _, at := range []float64{-0.1, 1.5, math.NaN()} {
		_, err := agent.New(agent.Options{Provider: llm.NewScripted(), Pipeline: newHarness(t, llm.NewScripted(), nil).pipe, Log: session.NewLog(nil), CompactAt: at})
		if err == nil {
			t.Errorf("CompactAt %v accepted", at)
		}
	}
}

func TestSwitchingToASmallerModelCompactsInRounds(t *testing.T) {
	w := newWindowModel(t, 4096)
	var window int64 = 1 << 20
	h := windowHarness(t, w, func(o *agent.Options) {
		o.Model = func() agent.ModelInfo { return agent.ModelInfo{Name: "picked", ContextWindow: window} }
	})
	// With the large model nothing is compacted; the fake's limit is off.
	w.window = 1 << 20
	for i := range 60 {
		if _, err := h.prompt(context.Background(), fmt.Sprint("turn ", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, summaries := w.report(); summaries != 0 {
		t.Fatalf("%d summaries with the large window", summaries)
	}
	w.mu.Lock()
	w.window = 4096
	w.mu.Unlock()
	window = 4096
	if reason, err := h.prompt(context.Background(), "now on the small model"); err != nil || reason != session.StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	problems, _, summaries := w.report()
	for _, p := range problems {
		t.Error(p)
	}
	done := compactions(h.log.Events())
	if summaries < 2 || len(done) != summaries {
		t.Fatalf("%d summary requests and %d compactions; want the 60 turns summarized in several rounds", summaries, len(done))
	}
	if last := done[len(done)-1]; last.Turns < 50 {
		t.Errorf("the summaries cover %d of 60 turns", last.Turns)
	}
}
