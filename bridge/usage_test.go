package bridge_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// Usage shows how full the answering model's window is and the session's
// cost so far: amounts add up per currency, a model without a price adds
// nothing, and a change of currency starts a new total.
func TestUsageUpdatesCarryTheTotalCost(t *testing.T) {
	steps := []struct {
		usage    session.Usage
		wantSize int64
		wantCost float64
		wantCur  string // "" = no cost
	}{
		{session.Usage{PromptTokens: 900, CompletionTokens: 100, ContextWindow: 8000, Cost: 0.25, Currency: "USD"}, 8000, 0.25, "USD"},
		{session.Usage{PromptTokens: 1900, CompletionTokens: 100, ContextWindow: 8000, Cost: 0.5, Currency: "USD"}, 8000, 0.75, "USD"},
		{session.Usage{PromptTokens: 10, CompletionTokens: 5}, 4096, 0.75, "USD"}, // unpriced, unknown window: the default
		{session.Usage{PromptTokens: 10, CompletionTokens: 5, ContextWindow: 1000, Cost: 2, Currency: "CNY"}, 1000, 2, "CNY"},
	}
	m := bridge.NewMapper(bridge.MapperOptions{ContextWindow: 4096})
	for i, st := range steps {
		updates := m.Map(session.Event{Seq: int64(i + 1), Payload: st.usage})
		if len(updates) != 1 {
			t.Fatalf("step %d: %d updates", i, len(updates))
		}
		u, ok := updates[0].(acp.UsageUpdate)
		if !ok {
			t.Fatalf("step %d: %T", i, updates[0])
		}
		if want := st.usage.PromptTokens + st.usage.CompletionTokens; u.Used != want || u.Size != st.wantSize {
			t.Errorf("step %d: used %d of %d, want %d of %d", i, u.Used, u.Size, want, st.wantSize)
		}
		switch {
		case st.wantCur == "" && u.Cost != nil:
			t.Errorf("step %d: cost %+v, want none", i, u.Cost)
		case st.wantCur != "" && (u.Cost == nil || u.Cost.Currency != st.wantCur || math.Abs(u.Cost.Amount-st.wantCost) > 1e-12):
			t.Errorf("step %d: cost %+v, want %v %s", i, u.Cost, st.wantCost, st.wantCur)
		}
	}
	// Without any window nothing is shown.
	if got := bridge.NewMapper(bridge.MapperOptions{}).Map(session.Event{Payload: session.Usage{PromptTokens: 1}}); len(got) != 0 {
		t.Errorf("usage without a window: %v", got)
	}
}

// A compaction shows as a finished card holding the summary, so the user
// sees what the model now remembers of the earlier turns: announced, then
// completed, as a tool call is (a client that takes a call's result from
// its completing update would otherwise show it running forever).
func TestCompactionIsShown(t *testing.T) {
	updates := bridge.NewMapper(bridge.MapperOptions{}).Map(session.Event{Seq: 42, Payload: session.Compacted{Summary: "We fixed the parser.", Through: 40, Turns: 3}})
	if len(updates) != 2 {
		t.Fatalf("%d updates, want the card and its completion", len(updates))
	}
	call, ok := updates[0].(acp.ToolCall)
	if !ok || call.Status != acp.ToolCallStatusInProgress || call.ToolCallID != "compaction-42" || call.Title == "" {
		t.Fatalf("first update = %+v, want the card in progress", updates[0])
	}
	done, ok := updates[1].(acp.ToolCallUpdate)
	if !ok || done.Status != acp.ToolCallStatusCompleted || done.ToolCallID != "compaction-42" || len(done.Content) != 1 {
		t.Fatalf("second update = %+v, want the card completed with the summary", updates[1])
	}
	if item, ok := done.Content[0].(acp.ContentItem); !ok || item.Content.(acp.TextContent).Text != "We fixed the parser." {
		t.Errorf("content = %+v", done.Content[0])
	}
	for _, u := range updates {
		if _, err := (acp.SessionNotification{SessionID: "s", Update: u}).MarshalJSON(); err != nil {
			t.Errorf("encoding: %v", err)
		}
	}
}

// What a check found after an edit (a language server's new errors) shows
// on the edit's card, after its diffs.
func TestEditCardShowsItsChecks(t *testing.T) {
	m := bridge.NewMapper(bridge.MapperOptions{Cwd: "/w"})
	m.Map(session.Event{Seq: 1, Payload: session.ToolCall{CallID: "e1", Name: "edit", Arguments: `{}`, View: presentation.DiffCallView{Title: "Edit a.go"}}})
	updates := m.Map(session.Event{Seq: 2, Payload: session.ToolResult{CallID: "e1", CallSeq: 1, Content: []presentation.ContentBlock{presentation.Text("ok")},
		View: presentation.DiffResultView{Title: "Edit a.go", Diffs: []presentation.FileDiff{presentation.ReplaceDiff("/w/a.go", "x", "y")}, Notes: "a.go:1:1: undefined: y"}}})
	if len(updates) != 1 {
		t.Fatalf("%d updates", len(updates))
	}
	u := updates[0].(acp.ToolCallUpdate)
	if len(u.Content) != 2 {
		t.Fatalf("content = %+v, want the diff and the notes", u.Content)
	}
	if _, ok := u.Content[0].(acp.Diff); !ok {
		t.Errorf("first item %T, want the diff", u.Content[0])
	}
	if item, ok := u.Content[1].(acp.ContentItem); !ok || item.Content.(acp.TextContent).Text != "a.go:1:1: undefined: y" {
		t.Errorf("second item %+v, want the notes", u.Content[1])
	}
}

// A search that found one place (a definition) moves the editor there.
func TestASingleFoundPlaceIsFollowed(t *testing.T) {
	m := bridge.NewMapper(bridge.MapperOptions{Cwd: "/w"})
	m.Map(session.Event{Seq: 1, Payload: session.ToolCall{CallID: "d1", Name: "definition", Arguments: `{}`, View: presentation.GenericCallView{Title: "definition", Kind: presentation.KindSearch}}})
	one := presentation.SearchMatchesView{Files: []presentation.SearchFile{{Path: "/w/a.go", Matches: []presentation.SearchMatch{{LineNumber: 12, Line: "func Parse("}}}}}
	u := m.Map(session.Event{Seq: 2, Payload: session.ToolResult{CallID: "d1", CallSeq: 1, Content: []presentation.ContentBlock{presentation.Text("a.go:12")}, View: one}})[0].(acp.ToolCallUpdate)
	if len(u.Locations) != 1 || u.Locations[0].Path != "/w/a.go" || u.Locations[0].Line == nil || *u.Locations[0].Line != 11 {
		t.Errorf("locations = %+v, want /w/a.go row 11", u.Locations)
	}
}

// A client that shows compactions sees each one start, its summary, and
// how it ended; replay shows the same; a card tells the others.
func TestCompactionUpdates(t *testing.T) {
	events := []session.Event{
		{Seq: 10, Payload: session.CompactionStarted{}},
		{Seq: 12, Payload: session.Compacted{Summary: "We fixed the parser.", Through: 9, Turns: 2, Started: 10}},
		{Seq: 20, Payload: session.CompactionStarted{}},
		{Seq: 21, Payload: session.CompactionFailed{Started: 20, Error: "the model answered 500"}},
		{Seq: 30, Payload: session.CompactionStarted{}},
		{Seq: 31, Payload: session.CompactionFailed{Started: 30, Cancelled: true}},
		{Seq: 42, Payload: session.Compacted{Summary: "Older.", Through: 40, Turns: 1}}, // logged before compactions were announced
	}
	want := []string{
		`{"sessionUpdate":"compaction_update","compactionId":"compaction-10","status":"in_progress"}`,
		`{"sessionUpdate":"compaction_summary_chunk","compactionId":"compaction-10","content":{"type":"text","text":"We fixed the parser."}}`,
		`{"sessionUpdate":"compaction_update","compactionId":"compaction-10","status":"completed"}`,
		`{"sessionUpdate":"compaction_update","compactionId":"compaction-20","status":"in_progress"}`,
		`{"sessionUpdate":"compaction_update","compactionId":"compaction-20","status":"failed","error":"the model answered 500"}`,
		`{"sessionUpdate":"compaction_update","compactionId":"compaction-30","status":"in_progress"}`,
		`{"sessionUpdate":"compaction_update","compactionId":"compaction-30","status":"cancelled"}`,
		`{"sessionUpdate":"compaction_summary_chunk","compactionId":"compaction-42","content":{"type":"text","text":"Older."}}`,
		`{"sessionUpdate":"compaction_update","compactionId":"compaction-42","status":"completed"}`,
	}
	for _, replay := range []bool{false, true} {
		m := bridge.NewMapper(bridge.MapperOptions{Compaction: true, Replay: replay})
		var got []string
		for _, ev := range events {
			got = append(got, encode(t, m.Map(ev))...)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("replay %v: updates =\n%s\nwant\n%s", replay, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	plain := bridge.NewMapper(bridge.MapperOptions{})
	var kinds []string
	for _, ev := range events {
		for _, u := range plain.Map(ev) {
			kinds = append(kinds, fmt.Sprintf("%T", u))
		}
	}
	if want := []string{"acp.ToolCall", "acp.ToolCallUpdate", "acp.ToolCall", "acp.ToolCallUpdate"}; !slices.Equal(kinds, want) {
		t.Errorf("without the capability: %v, want a card per finished compaction and nothing else", kinds)
	}
}

// A child's requests count in the session's cost: the parent's usage
// update is sent again with the new total and the parent's own context
// (the child's is its own); with the subagents capability the child's
// session gets its own usage too.
func TestChildUsageCountsInTheSessionsCost(t *testing.T) {
	child := func(u session.Usage) session.Payload {
		return session.SubagentEvent{ID: "sub_1", CallID: "t1", Payload: u}
	}
	for _, subagents := range []bool{false, true} {
		m := bridge.NewMapper(bridge.MapperOptions{Subagents: subagents})
		events := []session.Payload{
			session.SubagentStarted{ID: "sub_1", CallID: "t1", Type: "explore", Description: "d"},
			child(session.Usage{PromptTokens: 50, ContextWindow: 1000, Cost: 0.1, Currency: "USD"}), // before the parent's own: cost counted, nothing to show on the parent
			session.Usage{PromptTokens: 900, CompletionTokens: 100, ContextWindow: 8000, Cost: 0.25, Currency: "USD"},
			child(session.Usage{PromptTokens: 70, ContextWindow: 1000, Cost: 0.5, Currency: "USD"}),
		}
		var parent []acp.UsageUpdate
		var own int
		for i, p := range events {
			for _, u := range m.Map(session.Event{Seq: int64(i + 1), Payload: p}) {
				switch u := u.(type) {
				case acp.UsageUpdate:
					parent = append(parent, u)
				case acp.ChildUpdate:
					if _, ok := u.Update.(acp.UsageUpdate); ok && u.SessionID == "sub_1" {
						own++
					}
				}
			}
		}
		if len(parent) != 2 || parent[1].Used != 1000 || parent[1].Size != 8000 || parent[1].Cost == nil || math.Abs(parent[1].Cost.Amount-0.85) > 1e-12 {
			t.Errorf("subagents %v: the parent's usage updates %+v, want the last at 1000 of 8000 costing 0.85", subagents, parent)
		}
		if want := map[bool]int{false: 0, true: 2}[subagents]; own != want {
			t.Errorf("subagents %v: %d usage updates in the child's session, want %d", subagents, own, want)
		}
	}
}

// A child's announcement carries the task's description as the model
// wrote it, its control characters escaped as every title's are.
func TestSubagentTitleIsEscaped(t *testing.T) {
	m := bridge.NewMapper(bridge.MapperOptions{Subagents: true})
	updates := m.Map(session.Event{Seq: 1, Payload: session.SubagentStarted{ID: "sub_1", CallID: "t1", Type: "explore", Description: "find\x1b[2J it\r\n"}})
	if len(updates) != 1 {
		t.Fatalf("updates %v", updates)
	}
	u, ok := updates[0].(acp.SubagentUpdate)
	if !ok || u.SessionID != "sub_1" || !strings.HasPrefix(u.Title, "find") {
		t.Fatalf("update %#v", updates[0])
	}
	if strings.ContainsAny(u.Title, "\x1b\r") {
		t.Errorf("the title %q keeps its control characters", u.Title)
	}
}
