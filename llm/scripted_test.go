package llm_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

func TestScriptedReplaysSteps(t *testing.T) {
	type step struct {
		text, reasoning string
		calls           []llm.ToolCall
		finish          llm.FinishReason
		minTextDeltas   int
	}
	tests := []struct {
		name   string
		script string
		steps  []step
	}{
		{
			name:   "text only, streamed in several deltas",
			script: `{"text":"Hello there, big world."}`,
			steps:  []step{{text: "Hello there, big world.", finish: llm.FinishStop, minTextDeltas: 4}},
		},
		{
			name:   "reasoning then text",
			script: `{"reasoning":"Think first.","text":"Done."}`,
			steps:  []step{{reasoning: "Think first.", text: "Done.", finish: llm.FinishStop}},
		},
		{
			name:   "object arguments become compact JSON in written key order",
			script: `{"tool_calls":[{"id":"r1","name":"read","arguments":{"file_path": "a.go", "limit": 10, "offset": 1}}]}`,
			steps: []step{{calls: []llm.ToolCall{
				{ID: "r1", Name: "read", Arguments: `{"file_path":"a.go","limit":10,"offset":1}`},
			}, finish: llm.FinishToolCalls}},
		},
		{
			name:   "string arguments are kept verbatim, even malformed",
			script: `{"tool_calls":[{"id":"x","name":"edit","arguments":"{\"file_path\": \"a.go\", oops"}]}`,
			steps: []step{{calls: []llm.ToolCall{
				{ID: "x", Name: "edit", Arguments: `{"file_path": "a.go", oops`},
			}, finish: llm.FinishToolCalls}},
		},
		{
			name: "missing ids are generated per request and index",
			script: `{"text":"first"}
{"text":"Running both.","tool_calls":[{"name":"bash","arguments":{"command":"ls"}},{"name":"glob","arguments":{"pattern":"*"}}]}`,
			steps: []step{
				{text: "first", finish: llm.FinishStop},
				{text: "Running both.", calls: []llm.ToolCall{
					{ID: "call_2_0", Name: "bash", Arguments: `{"command":"ls"}`},
					{ID: "call_2_1", Name: "glob", Arguments: `{"pattern":"*"}`},
				}, finish: llm.FinishToolCalls},
			},
		},
		{
			name:   "absent arguments are an empty object",
			script: `{"tool_calls":[{"id":"t","name":"todo_write"}]}`,
			steps:  []step{{calls: []llm.ToolCall{{ID: "t", Name: "todo_write", Arguments: "{}"}}, finish: llm.FinishToolCalls}},
		},
		{
			name:   "blank lines are skipped; an exhausted script answers empty",
			script: "\n{\"text\":\"only\"}\r\n\n",
			steps: []step{
				{text: "only", finish: llm.FinishStop},
				{finish: llm.FinishStop},
				{finish: llm.FinishStop},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := llm.ReadScript(strings.NewReader(tt.script), "test.jsonl")
			if err != nil {
				t.Fatalf("ReadScript: %v", err)
			}
			for i, want := range tt.steps {
				evs, resp, err := collect(t, t.Context(), p, userRequest("go"))
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				wantMsg := llm.Message{Role: llm.RoleAssistant, Content: want.text, Reasoning: want.reasoning, ToolCalls: want.calls}
				if !reflect.DeepEqual(resp.Message, wantMsg) {
					t.Errorf("step %d message\n got %+v\nwant %+v", i, resp.Message, wantMsg)
				}
				if resp.FinishReason != want.finish {
					t.Errorf("step %d finish = %q, want %q", i, resp.FinishReason, want.finish)
				}
				if joinText(evs) != want.text {
					t.Errorf("step %d deltas join to %q", i, joinText(evs))
				}
				if n := len(eventsOfType[llm.TextDelta](evs)); n < want.minTextDeltas {
					t.Errorf("step %d: %d text deltas, want at least %d", i, n, want.minTextDeltas)
				}
				if n := len(eventsOfType[llm.ToolCallDone](evs)); n != len(want.calls) {
					t.Errorf("step %d: %d ToolCallDone, want %d", i, n, len(want.calls))
				}
			}
			if got := len(p.Requests()); got != 0 {
				t.Errorf("a loaded script kept %d requests, want none", got)
			}
		})
	}
}

func TestScriptErrors(t *testing.T) {
	tests := []struct {
		name   string
		script string
		line   int
		want   string
	}{
		{"not JSON", "{\"text\":\"ok\"}\n{\"text\": nope}\n", 2, "test.jsonl:2: invalid JSON"},
		{"not an object", "[1,2]", 1, "one JSON object per line"},
		{"unknown key", `{"txt":"typo"}`, 1, `unknown field "txt"`},
		{"trailing text", `{"text":"a"} {"text":"b"}`, 1, "after the JSON object"},
		{"tool call without name", "\n\n" + `{"tool_calls":[{"arguments":{}}]}`, 3, "tool_calls[0]: name is required"},
		{"arguments of the wrong type", `{"tool_calls":[{"name":"read","arguments":[1]}]}`, 1, "object or a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := llm.ReadScript(strings.NewReader(tt.script), "test.jsonl")
			var se *llm.ScriptError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *ScriptError", err)
			}
			if se.File != "test.jsonl" || se.Line != tt.line {
				t.Errorf("at %s:%d, want test.jsonl:%d", se.File, se.Line, tt.line)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestLoadScript(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.jsonl")
	if err := os.WriteFile(path, []byte(`{"text":"from file"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := llm.NewProvider(llm.Config{ModelScript: path})
	if err != nil {
		t.Fatal(err)
	}
	_, resp, err := collect(t, t.Context(), p, userRequest("hi"))
	if err != nil || resp.Message.Content != "from file" {
		t.Fatalf("resp %+v, err %v", resp, err)
	}

	_, err = llm.LoadScript(filepath.Join(dir, "missing.jsonl"))
	var se *llm.ScriptError
	if !errors.As(err, &se) || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("err = %v, want a *ScriptError naming the file", err)
	}
}

func TestScriptedConcurrentSessions(t *testing.T) {
	const n = 50
	var script strings.Builder
	for range n {
		script.WriteString(`{"text":"step"}` + "\n")
	}
	p, err := llm.ReadScript(strings.NewReader(script.String()), "c.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p.KeepRequests(-1)
	var wg sync.WaitGroup
	for range n + 10 {
		wg.Go(func() {
			if _, _, err := collect(t, t.Context(), p, userRequest("hi")); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if p.Remaining() != 0 || len(p.Requests()) != n+10 {
		t.Errorf("remaining %d, requests %d", p.Remaining(), len(p.Requests()))
	}
}

// TestScriptedKeepsOnlyWhatItIsAskedTo: NewScripted keeps every request
// (tests read them), a loaded script none, and KeepRequests bounds them to
// the latest n — while tool call ids still count every request served.
func TestScriptedKeepsOnlyWhatItIsAskedTo(t *testing.T) {
	step := llm.Message{ToolCalls: []llm.ToolCall{{Name: "read", Arguments: `{}`}}}
	loaded, err := llm.ReadScript(strings.NewReader(`{"text":"a"}`+"\n"), "k.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    *llm.Scripted
		want []string // the user text of each kept request
	}{
		{name: "NewScripted keeps all", p: llm.NewScripted(step, step, step, step), want: []string{"r1", "r2", "r3", "r4"}},
		{name: "a loaded script keeps none", p: loaded},
		{name: "bounded to the latest two", p: llm.NewScripted(step, step, step, step).KeepRequests(2), want: []string{"r3", "r4"}},
		{name: "none", p: llm.NewScripted(step, step, step, step).KeepRequests(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var last llm.Response
			for i := range 4 {
				_, resp, err := collect(t, t.Context(), tt.p, userRequest(fmt.Sprintf("r%d", i+1)))
				if err != nil {
					t.Fatal(err)
				}
				last = resp
			}
			var got []string
			for _, r := range tt.p.Requests() {
				got = append(got, r.Messages[0].Content)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("kept %q, want %q", got, tt.want)
			}
			if len(last.Message.ToolCalls) == 1 && last.Message.ToolCalls[0].ID != "call_4_0" {
				t.Errorf("the 4th request's call id = %q, want call_4_0", last.Message.ToolCalls[0].ID)
			}
		})
	}
}

func TestScriptedCancellation(t *testing.T) {
	p := llm.NewScripted(llm.Message{Content: "one two three four"}, llm.Message{Content: "next"})
	ctx, cancel := context.WithCancel(t.Context())
	s, err := p.Stream(ctx, userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Next() {
		t.Fatal(s.Err())
	}
	cancel()
	if s.Next() {
		t.Fatalf("event after cancel: %#v", s.Event())
	}
	if !errors.Is(s.Err(), context.Canceled) {
		t.Errorf("err = %v", s.Err())
	}
	// A request on a dead context consumes nothing.
	if _, err := p.Stream(ctx, userRequest("hi")); !errors.Is(err, context.Canceled) {
		t.Errorf("Stream on cancelled ctx: %v", err)
	}
	if p.Remaining() != 1 {
		t.Errorf("Remaining = %d, want 1", p.Remaining())
	}
}

func TestNewProviderBadScriptIsNilProvider(t *testing.T) {
	p, err := llm.NewProvider(llm.Config{ModelScript: filepath.Join(t.TempDir(), "none.jsonl")})
	if err == nil || p != nil {
		t.Fatalf("p = %#v, err = %v; want nil provider and an error", p, err)
	}
}

func BenchmarkScriptedStep(b *testing.B) {
	text := strings.Repeat("word ", 200)
	step := llm.Message{Content: text, ToolCalls: []llm.ToolCall{{Name: "read", Arguments: `{"file_path":"a.go"}`}}}
	req := userRequest("go")
	b.ReportAllocs()
	for b.Loop() {
		p := llm.NewScripted(step)
		s, err := p.Stream(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := llm.Collect(s, nil); err != nil {
			b.Fatal(err)
		}
	}
}
