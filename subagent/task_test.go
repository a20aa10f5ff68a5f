package subagent_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/subagent"
)

// TestExploreSeesOnlyItsTools: an explore child's model is offered only
// the read tools and bash, never task nor anything that writes; it gets
// its own instructions and the prompt as its first message; its answer is
// the task's result; its calls are nested in the task call.
func TestExploreSeesOnlyItsTools(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.model.script("go", calls(call("t1", "task", map[string]any{
		"description": "find the parser", "prompt": "where is the parser?", "subagent_type": "explore",
	})), answer("done"))
	f.model.script("where is the parser?", calls(call("c1", "read", map[string]any{"path": "parser.go"})), answer("parser.go:12"))
	if reason, err := f.prompt(context.Background(), "go"); err != nil || reason != session.StopEndTurn {
		t.Fatalf("prompt = %v, %v", reason, err)
	}
	reqs := f.model.requestsOf("where is the parser?")
	if len(reqs) != 2 {
		t.Fatalf("the child made %d requests, want 2", len(reqs))
	}
	if got, want := toolNames(reqs[0]), []string{"read", "grep", "glob", "bash"}; !slices.Equal(got, want) {
		t.Errorf("the explore child was offered %v, want %v", got, want)
	}
	mustContain(t, "the child's system prompt", reqs[0].System, "explore subagent", "# Tools", "Working directory")
	if strings.Contains(reqs[0].System, "You are dsh, a coding agent working inside the user's editor") {
		t.Errorf("the child was told the parent's instructions")
	}
	if parent := toolNames(f.model.requestsOf("go")[0]); !slices.Contains(parent, "task") || !slices.Contains(parent, "write") {
		t.Errorf("the parent was offered %v", parent)
	}
	r := f.result("t1")
	if r.IsError || text(r) != "parser.go:12" {
		t.Errorf("task result = %+v, want the child's answer", r)
	}
	var started, ended int
	for _, ev := range f.log.Events() {
		switch p := ev.Payload.(type) {
		case session.SubagentStarted:
			started++
			if p.CallID != "t1" || p.Type != "explore" || p.Description != "find the parser" {
				t.Errorf("started = %+v", p)
			}
		case session.SubagentEnded:
			ended++
			if p.Reason != session.StopEndTurn || p.Error != "" {
				t.Errorf("ended = %+v", p)
			}
		}
	}
	if started != 1 || ended != 1 {
		t.Errorf("%d starts and %d ends logged, want 1 each", started, ended)
	}
	kinds := []string{}
	for _, p := range f.childEvents("t1") {
		kinds = append(kinds, p.Kind())
	}
	for _, want := range []string{"turn/start", "user/message", "tool/call", "tool/result", "context/message", "turn/end"} {
		if !slices.Contains(kinds, want) {
			t.Errorf("the parent's log holds the child's %v, want a %s among them", kinds, want)
		}
	}
}

// TestChildContextComesBackAfterTheTask: what the child's calls handed on
// (the diagnostics read defers) reaches the parent after the task's
// result, through the deferred-context path.
func TestChildContextComesBackAfterTheTask(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.model.script("go", calls(call("t1", "task", map[string]any{"description": "d", "prompt": "look", "subagent_type": "explore"})), answer("done"))
	f.model.script("look", calls(call("c1", "read", map[string]any{"path": "a.go"})), answer("seen"))
	if _, err := f.prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	resultAt, contextAt := -1, -1
	for i, ev := range f.log.Events() {
		switch p := ev.Payload.(type) {
		case session.ToolResult:
			if p.CallID == "t1" {
				resultAt = i
			}
		case session.ContextMessage:
			if strings.Contains(text(session.ToolResult{Content: p.Message.Content}), "diagnostics for a.go") {
				contextAt = i
			}
		}
	}
	if resultAt < 0 || contextAt < resultAt {
		t.Errorf("the task result is event %d, the child's context %d: want the context after the result", resultAt, contextAt)
	}
	last := f.model.requestsOf("go")[1].Messages
	if got := last[len(last)-1]; got.Role != llm.RoleUser || !strings.Contains(got.Content, "diagnostics for a.go") {
		t.Errorf("the parent's next request ends with %+v, want the child's context", got)
	}
}

// TestParallelExploreTasksOverlap: three explore tasks of one step run
// at once — the model sees the three children's requests in flight
// together (each child's first request waits until all three arrived).
func TestParallelExploreTasksOverlap(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	prompts := []string{"q1", "q2", "q3"}
	var tasks []llm.ToolCall
	for i, p := range prompts {
		tasks = append(tasks, call("t"+string(rune('1'+i)), "task", map[string]any{"description": p, "prompt": p, "subagent_type": "explore"}))
		f.model.script(p, answer("answer to "+p))
	}
	f.model.script("go", calls(tasks...), answer("done"))
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	f.model.hold = func(ctx context.Context, route string) error {
		if route == "go" {
			return nil
		}
		return f.model.waitFor(ctx, func(m *routedModel) bool {
			n := 0
			for _, p := range prompts {
				n += len(m.requests[p])
			}
			return n == len(prompts)
		})
	}
	if reason, err := f.prompt(ctx, "go"); err != nil || reason != session.StopEndTurn {
		t.Fatalf("prompt = %v, %v (the children did not overlap)", reason, err)
	}
	for i, p := range prompts {
		if r := f.result(tasks[i].ID); r.IsError || text(r) != "answer to "+p {
			t.Errorf("task %s = %+v", tasks[i].ID, r)
		}
	}
	if f.model.peak < 3 {
		t.Errorf("at most %d requests were in flight, want the 3 children's", f.model.peak)
	}
}

// TestParallelTasksAreBounded: with MaxParallel 2, four explore tasks
// never have more than two children asking the model at once.
func TestParallelTasksAreBounded(t *testing.T) {
	f := newFixture(t, fixtureOptions{maxParallel: 2})
	var tasks []llm.ToolCall
	for i := range 4 {
		p := "q" + string(rune('1'+i))
		tasks = append(tasks, call("t"+p, "task", map[string]any{"description": p, "prompt": p, "subagent_type": "explore"}))
		f.model.script(p, answer("a"))
	}
	f.model.script("go", calls(tasks...), answer("done"))
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if _, err := f.prompt(ctx, "go"); err != nil {
		t.Fatal(err)
	}
	// The parent's own request is not in flight while its batch runs.
	if f.model.peak > 2 {
		t.Errorf("%d requests were in flight at once, want at most 2", f.model.peak)
	}
}

// TestGeneralIsExclusiveAndSeesAllButTask: a general child is offered
// every tool of its parent but task, and two general tasks of one step
// run one after the other.
func TestGeneralIsExclusiveAndSeesAllButTask(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.model.script("go", calls(
		call("t1", "task", map[string]any{"description": "a", "prompt": "g1"}),
		call("t2", "task", map[string]any{"description": "b", "prompt": "g2", "subagent_type": "general"}),
	), answer("done"))
	f.model.script("g1", answer("one"))
	f.model.script("g2", answer("two"))
	if _, err := f.prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	got := toolNames(f.model.requestsOf("g1")[0])
	want := []string{"read", "grep", "glob", "write", "edit", "bash", "todo_write"}
	if !slices.Equal(got, want) {
		t.Errorf("the general child was offered %v, want %v", got, want)
	}
	if f.model.peak != 1 {
		t.Errorf("%d requests in flight at once, want general tasks one at a time", f.model.peak)
	}
	if text(f.result("t1")) != "one" || text(f.result("t2")) != "two" {
		t.Errorf("results %q, %q", text(f.result("t1")), text(f.result("t2")))
	}
}

// TestExploreRefusesCommandsThatAreNotReadOnly: an explore child's
// read-only command runs without asking; one that writes is refused, and
// never asks the user.
func TestExploreRefusesCommandsThatAreNotReadOnly(t *testing.T) {
	f := newFixture(t, fixtureOptions{preset: "full-access"})
	f.model.script("go", calls(call("t1", "task", map[string]any{"description": "d", "prompt": "look", "subagent_type": "explore"})), answer("done"))
	f.model.script("look", calls(
		call("c1", "bash", map[string]any{"command": "ls"}),
		call("c2", "bash", map[string]any{"command": "rm -rf build"}),
		call("c3", "write", map[string]any{"path": "x"}),
	), answer("seen"))
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	go func() {
		select {
		case a := <-f.asks:
			t.Errorf("the explore child asked about %s", a.req.ToolName)
			a.reply <- pipeline.ApprovalRejected
		case <-ctx.Done():
		}
	}()
	if _, err := f.prompt(ctx, "go"); err != nil {
		t.Fatal(err)
	}
	results := map[string]session.ToolResult{}
	for _, p := range f.childEvents("t1") {
		if r, ok := p.(session.ToolResult); ok {
			results[r.CallID] = r
		}
	}
	if r := results["c1"]; r.IsError {
		t.Errorf("ls = %+v, want it run", r)
	}
	if r := results["c2"]; !r.IsError || !strings.Contains(text(r), "only reads") {
		t.Errorf("rm = %+v, want it refused", r)
	}
	if r := results["c3"]; !r.IsError || r.Code != registry.CodeUnknownTool {
		t.Errorf("write = %+v, want an unknown tool", r)
	}
}

// TestChildFailureIsTheTaskError: a child whose model fails, or that uses
// its step budget, fails its task; the parent's turn goes on.
func TestChildFailureIsTheTaskError(t *testing.T) {
	f := newFixture(t, fixtureOptions{maxSteps: 2})
	f.model.script("go", calls(
		call("t1", "task", map[string]any{"description": "d", "prompt": "loop", "subagent_type": "explore"}),
		call("t2", "task", map[string]any{"description": "d", "prompt": "x", "subagent_type": "nope"}),
	), answer("done"))
	f.model.script("loop", calls(call("c1", "grep", map[string]any{})), calls(call("c2", "grep", map[string]any{})), answer("never"))
	if reason, err := f.prompt(context.Background(), "go"); err != nil || reason != session.StopEndTurn {
		t.Fatalf("prompt = %v, %v", reason, err)
	}
	if r := f.result("t1"); !r.IsError || !strings.Contains(text(r), "used its 2 model requests") {
		t.Errorf("task over budget = %+v", r)
	}
	if r := f.result("t2"); !r.IsError || r.Code != registry.CodeInvalidArgs || !strings.Contains(text(r), `"explore","general"`) {
		t.Errorf("unknown type = %+v", r)
	}
}

// TestDepthLimit: with the default depth, a type whose tools list task
// still gets none; with depth 2 it gets a task tool of its own, whose
// children are its own.
func TestDepthLimit(t *testing.T) {
	nester := subagent.Type{Name: "nester", Description: "nests", Tools: []string{"read", "task"}, Instructions: "nest"}
	for _, depth := range []int{1, 2} {
		f := newFixture(t, fixtureOptions{types: []subagent.Type{nester}, maxDepth: depth})
		f.model.script("go", calls(call("t1", "task", map[string]any{"description": "d", "prompt": "outer", "subagent_type": "nester"})), answer("done"))
		f.model.script("outer", calls(call("t2", "task", map[string]any{"description": "d", "prompt": "inner", "subagent_type": "explore"})), answer("outer done"))
		f.model.script("inner", answer("inner done"))
		if _, err := f.prompt(context.Background(), "go"); err != nil {
			t.Fatal(err)
		}
		offered := toolNames(f.model.requestsOf("outer")[0])
		inner := f.model.requestsOf("inner")
		switch depth {
		case 1:
			if slices.Contains(offered, "task") || len(inner) != 0 {
				t.Errorf("depth 1: the child was offered %v and started %d grandchildren", offered, len(inner))
			}
		case 2:
			if !slices.Contains(offered, "task") || len(inner) != 1 {
				t.Errorf("depth 2: the child was offered %v and started %d grandchildren", offered, len(inner))
			}
			if got := toolNames(inner[0]); slices.Contains(got, "task") {
				t.Errorf("the grandchild was offered %v", got)
			}
		}
	}
}
