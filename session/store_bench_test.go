package session_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// The budgets these benchmarks are held to (issue 9): appending an event
// ≤ 50 µs; loading a 1,000-event session ≤ 50 ms; listing 1,000 sessions
// ≤ 20 ms; session/new, of which Create is a part, ≤ 2 ms. Run them with
//
//	go test -run '^$' -bench 'Journal|Store' -benchmem ./session/

// typicalEvents are events an append commonly writes.
func typicalEvents() map[string]session.Payload {
	return map[string]session.Payload{
		"chunk": session.AssistantChunk{Text: "Let me look at the failing test first. "},
		"tool_call": session.ToolCall{CallID: "call_0123456789", Name: "bash", Arguments: `{"command":"go test ./...","description":"run the tests"}`,
			View: presentation.TerminalCallView{Title: "go test ./...", Description: "run the tests"}},
		"tool_result_diff": diffResult(3),
	}
}

// diffResult is an edit's result: hunks of a dozen lines each.
func diffResult(hunks int) session.ToolResult {
	var diffs []presentation.FileDiff
	for h := range hunks {
		old := strings.Repeat(fmt.Sprintf("\told line %d of a Go function body\n", h), 12)
		diffs = append(diffs, presentation.ReplaceDiff("/srv/proj/internal/server/handler.go", old, strings.ReplaceAll(old, "old", "new")))
	}
	return session.ToolResult{
		CallID: "call_0123456789", CallSeq: 41,
		Content: []presentation.ContentBlock{presentation.Text("Edited /srv/proj/internal/server/handler.go: 3 replacements.")},
		View:    presentation.DiffResultView{Title: "Edit handler.go", Diffs: diffs},
	}
}

func BenchmarkJournalAppend(b *testing.B) {
	for name, p := range typicalEvents() {
		b.Run(name, func(b *testing.B) {
			ts := newTestStore(b)
			j := ts.create(b, session.Meta{})
			defer j.Close()
			ev := session.Event{Seq: 1, Time: ts.clock.Now(), Turn: 1, Payload: p}
			b.ReportAllocs()
			for b.Loop() {
				j.Write(ev)
				if err := j.Flush(); err != nil {
					b.Fatal(err)
				}
				ev.Seq++
			}
		})
	}
}

// mixedSession returns n events of a realistic mix: per step a streamed
// answer, a tool call, its output and its result (an edit's diff every
// other step), and a usage report, in turns of a dozen steps.
func mixedSession(n int) []session.Payload {
	var out []session.Payload
	for step := 0; len(out) < n; step++ {
		if step%12 == 0 {
			out = append(out, session.TurnStarted{}, session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("Please fix the failing handler test and run the suite.")}})
		}
		id := fmt.Sprintf("call_%d", step)
		out = append(out,
			session.AssistantChunk{Text: "I will inspect the handler and then run the tests to confirm the fix works.", Reasoning: true},
			session.AssistantMessage{Text: "Looking at the handler.", Reasoning: "I will inspect the handler.", ToolCalls: []session.ToolCallRef{{ID: id, Name: "edit", Arguments: `{"file_path":"handler.go","old_string":"a","new_string":"b"}`}}},
			session.ToolCall{CallID: id, Name: "edit", Arguments: `{"file_path":"handler.go","old_string":"a","new_string":"b"}`,
				View: presentation.DiffCallView{Title: "Edit handler.go", Diffs: []presentation.FileDiff{presentation.ReplaceDiff("handler.go", "a", "b")}}},
			session.ToolStarted{CallID: id},
		)
		if step%2 == 0 {
			out = append(out, diffResult(2))
		} else {
			out = append(out,
				session.ToolOutput{CallID: id, Output: strings.Repeat("ok  \tgithub.com/x/y/pkg\t0.012s\n", 10)},
				session.ToolResult{CallID: id, Content: []presentation.ContentBlock{presentation.Text("PASS")},
					View: presentation.TerminalResultView{Title: "go test ./...", Output: strings.Repeat("ok\n", 10), ExitCode: new(int)}},
			)
		}
		out = append(out, session.Usage{PromptTokens: 12000, CompletionTokens: 300, TotalTokens: 12300, CachedPromptTokens: 11000, Model: "deepseek-v4-flash", Cost: 0.0012, Currency: "USD"})
		if step%12 == 11 {
			out = append(out, session.TurnEnded{Reason: session.StopEndTurn})
		}
	}
	return out[:n]
}

func BenchmarkStoreOpen1000Events(b *testing.B) {
	ts := newTestStore(b)
	j := ts.create(b, session.Meta{Cwd: "/srv/proj", Title: "a long session"})
	id := j.ID()
	record(b, j, session.NewLog(nil), mixedSession(1000)...)
	if err := j.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		j, loaded, err := ts.Open(id)
		if err != nil {
			b.Fatal(err)
		}
		if len(loaded.Events) != 1000 {
			b.Fatalf("loaded %d events", len(loaded.Events))
		}
		if err := j.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// populate creates n closed sessions, a few events each.
func populate(b *testing.B, ts *testStore, n int) {
	b.Helper()
	for i := range n {
		j := ts.create(b, session.Meta{Cwd: fmt.Sprintf("/srv/proj%d", i%10), Title: fmt.Sprintf("Session number %d about fixing something", i),
			Model: "deepseek-v4-flash", Preset: "workspace-write"})
		record(b, j, session.NewLog(nil), session.TurnStarted{}, session.TurnEnded{})
		if err := j.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStoreList1000Sessions lists a store of 1,000 sessions: warm,
// when the index is as this store last read or wrote it, and cold, when
// another process has changed it since (a fresh Store reads it anew).
func BenchmarkStoreList1000Sessions(b *testing.B) {
	ts := newTestStore(b)
	populate(b, ts, 1000)
	list := func(b *testing.B, s *session.Store) {
		metas, err := s.List("")
		if err != nil || len(metas) != 1000 {
			b.Fatal(len(metas), err)
		}
	}
	b.Run("warm", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			list(b, ts.Store)
		}
	})
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := session.OpenStore(ts.dir, session.StoreOptions{})
			if err != nil {
				b.Fatal(err)
			}
			list(b, s)
		}
	})
}

// BenchmarkStoreCreate measures a new session in a store already holding
// some: "new" is what session/new pays (Create and Close of a session
// that keeps nothing); "stored" adds the first Flush, which stores the
// session (its lock, its log, its index entry) as its first prompt does.
func BenchmarkStoreCreate(b *testing.B) {
	for _, existing := range []int{0, 1000} {
		for _, keep := range []bool{false, true} {
			name := map[bool]string{false: "new", true: "stored"}[keep]
			b.Run(fmt.Sprintf("%s/existing=%d", name, existing), func(b *testing.B) {
				ts := newTestStore(b)
				populate(b, ts, existing)
				ev := session.Event{Seq: 1, Time: ts.clock.Now(), Turn: 1, Payload: session.TurnStarted{}}
				b.ReportAllocs()
				for b.Loop() {
					j := ts.create(b, session.Meta{Cwd: "/srv/proj", Model: "deepseek-v4-flash", Preset: "workspace-write"})
					if keep {
						j.Write(ev)
						if err := j.Flush(); err != nil {
							b.Fatal(err)
						}
					}
					if err := j.Close(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
