package agent_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// countedArgs counts its decodes in the decodeCounter its "counter" field
// names.
type countedArgs struct {
	Counter string `json:"counter"`
	ID      string `json:"id"`
}

// counters maps a counter name to its *decodeCounter.
var counters sync.Map

type decodeCounter struct {
	mu  sync.Mutex
	ids map[string]int
}

func (a *countedArgs) UnmarshalJSON(b []byte) error {
	type plain countedArgs
	if err := json.Unmarshal(b, (*plain)(a)); err != nil {
		return err
	}
	c, _ := counters.LoadOrStore(a.Counter, &decodeCounter{ids: map[string]int{}})
	dc := c.(*decodeCounter)
	dc.mu.Lock()
	defer dc.mu.Unlock()
	dc.ids[a.ID]++
	return nil
}

func decodesOf(counter string) map[string]int {
	c, ok := counters.Load(counter)
	if !ok {
		return nil
	}
	dc := c.(*decodeCounter)
	dc.mu.Lock()
	defer dc.mu.Unlock()
	out := make(map[string]int, len(dc.ids))
	for id, n := range dc.ids {
		out[id] = n
	}
	return out
}

func TestEachCallIsBoundOnce(t *testing.T) {
	// Classifying, announcing, checking paths, running and presenting the
	// result all ask the call's one binding. Validation and decoding
	// happen together in Tool.Bind, decoding only after validation passed
	// (registry's TestBindValidatesAndDecodesOnce counts both), so one
	// decode per call means one validation per call.
	counter := t.Name()
	// A counter of this name left by an earlier run (-count) starts over.
	counters.Delete(counter)
	t.Cleanup(func() { counters.Delete(counter) })
	args := func(id string) string {
		data, _ := json.Marshal(countedArgs{Counter: counter, ID: id})
		return string(data)
	}
	model := llm.NewScripted(
		llm.Message{ToolCalls: []llm.ToolCall{
			{ID: "call_p1", Name: "counted", Arguments: args("p1")},
			{ID: "call_p2", Name: "counted", Arguments: args("p2")},
			{ID: "call_x", Name: "counted", Arguments: args("x")},
			{ID: "call_bad", Name: "counted", Arguments: `{"counter":"` + counter + `","id":7}`},
		}},
		llm.Message{Content: "done"},
	)
	h := newHarness(t, model, nil)
	var pathsMu sync.Mutex
	paths := map[string]int{}
	tool, err := registry.Define(registry.Spec[countedArgs, string]{
		Name:            "counted",
		ConcurrencySafe: func(a countedArgs) bool { return a.ID != "x" },
		Paths: func(a countedArgs) []string {
			pathsMu.Lock()
			defer pathsMu.Unlock()
			paths[a.ID]++
			return nil
		},
		PresentCall: func(a countedArgs) presentation.CallView {
			return presentation.GenericCallView{Title: "call " + a.ID}
		},
		PresentResult: func(a countedArgs, r presentation.ToolResult) presentation.ResultView {
			return presentation.GenericResultView{Title: "result " + a.ID}
		},
		Handler: func(_ context.Context, call *registry.Call, a countedArgs) (string, error) {
			// A pre-execute listener or the body may ask the call's
			// binding too; it does not decode again.
			call.Bound().Paths()
			return "ran " + a.ID, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.reg.Register(h.scope, tool); err != nil {
		t.Fatal(err)
	}
	if reason, err := h.prompt(context.Background(), "go"); err != nil || reason != session.StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	want := map[string]int{"p1": 1, "p2": 1, "x": 1}
	got := decodesOf(counter)
	if len(got) != len(want) {
		t.Errorf("decodes = %v, want %v (none for the invalid call)", got, want)
	}
	for id, n := range want {
		if got[id] != n {
			t.Errorf("call %s decoded %d times, want %d", id, got[id], n)
		}
		if paths[id] != 1 {
			t.Errorf("call %s paths asked %d times, want 1", id, paths[id])
		}
	}
	views := map[string]string{}
	for _, ev := range h.log.Events() {
		switch p := ev.Payload.(type) {
		case session.ToolCall:
			if v, ok := p.View.(presentation.GenericCallView); ok {
				views[p.CallID+" call"] = v.Title
			}
		case session.ToolResult:
			if v, ok := p.View.(presentation.GenericResultView); ok {
				views[p.CallID+" result"] = v.Title
			}
			if p.CallID == "call_bad" && p.Code != registry.CodeInvalidArgs {
				t.Errorf("invalid call code = %q", p.Code)
			}
		}
	}
	for _, id := range []string{"p1", "p2", "x"} {
		if views["call_"+id+" call"] != "call "+id || views["call_"+id+" result"] != "result "+id {
			t.Errorf("cards of %s = %q / %q", id, views["call_"+id+" call"], views["call_"+id+" result"])
		}
	}
	if _, ok := views["call_bad call"]; ok {
		t.Errorf("the invalid call has a card")
	}
}
