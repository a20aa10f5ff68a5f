package subagent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/subagent"
)

func mustJSON(t *testing.T, text string) jsonvalue.Value {
	t.Helper()
	v, err := jsonvalue.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestUnsupportedOutputSchemaIsRefused: an output_schema outside the
// subset is refused before any child starts, with every violation.
func TestUnsupportedOutputSchemaIsRefused(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	bad := mustJSON(t, `{"type":"object","properties":{"name":{"type":"string","pattern":"^a"},"n":{"type":"integer","minimum":1}},"anyOf":[]}`)
	f.model.script("go", calls(call("t1", "task", map[string]any{"description": "d", "prompt": "p", "output_schema": bad})), answer("done"))
	if _, err := f.prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	r := f.result("t1")
	if !r.IsError || r.Code != registry.CodeInvalidArgs {
		t.Fatalf("result = %+v, want INVALID_ARGS", r)
	}
	mustContain(t, "the refusal", text(r),
		"output_schema.anyOf is not a supported keyword",
		"output_schema.properties.name.pattern is not a supported keyword",
		"output_schema.properties.n.minimum is not a supported keyword")
	if n := len(f.model.requestsOf("p")); n != 0 {
		t.Errorf("the child made %d requests, want none", n)
	}
	for _, ev := range f.log.Events() {
		if _, ok := ev.Payload.(session.SubagentStarted); ok {
			t.Errorf("a child started")
		}
	}
	f = newFixture(t, fixtureOptions{})
	root := mustJSON(t, `{"type":"array"}`)
	f.model.script("go", calls(call("t2", "task", map[string]any{"description": "d", "prompt": "p", "output_schema": root})), answer("done"))
	if _, err := f.prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	mustContain(t, "an array root's refusal", text(f.result("t2")), "structured output is object-rooted")
}

const answerSchema = `{"type":"object","properties":{"file":{"type":"string"},"line":{"type":"integer"}},"required":["file","line"],"additionalProperties":false}`

// TestStructuredResultIsCorrected: the child must finish through the
// result tool, whose parameters are the schema; its invalid value is sent
// back with the validator's messages, the corrected one is the task's
// result.
func TestStructuredResultIsCorrected(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.model.script("go", calls(call("t1", "task", map[string]any{
		"description": "d", "prompt": "where", "subagent_type": "explore", "output_schema": mustJSON(t, answerSchema),
	})), answer("done"))
	f.model.script("where",
		calls(call("r1", subagent.ResultTool, map[string]any{"file": "a.go", "line": "12", "extra": true})),
		calls(call("r2", subagent.ResultTool, map[string]any{"file": "a.go", "line": 12})),
		answer("should not be asked"))
	if _, err := f.prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	reqs := f.model.requestsOf("where")
	if len(reqs) != 2 {
		t.Fatalf("the child made %d requests, want 2 (the accepted result ends its turn)", len(reqs))
	}
	var offered string
	for _, tool := range reqs[0].Tools {
		if tool.Name == subagent.ResultTool {
			offered = string(tool.Parameters)
		}
	}
	if offered != mustJSON(t, answerSchema).Canonical() {
		t.Errorf("the result tool's parameters = %s, want the schema", offered)
	}
	second := reqs[1].Messages
	mustContain(t, "what the child was told", second[len(second)-1].Content,
		`"line" must be an integer`, `"extra" is not a declared property`, "2 tries left")
	if r := f.result("t1"); r.IsError || text(r) != `{"file":"a.go","line":12}` {
		t.Errorf("task result = %+v, want the valid value", r)
	}
}

// TestStructuredResultGivesUp: a child that never submits a valid value
// fails its task after three tries, with the last violations; a child
// that ends without submitting is asked again, and that counts as a try.
func TestStructuredResultGivesUp(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.model.script("go", calls(call("t1", "task", map[string]any{
		"description": "d", "prompt": "where", "subagent_type": "explore", "output_schema": mustJSON(t, answerSchema),
	})), answer("done"))
	f.model.script("where",
		answer("it is in a.go"),
		calls(call("r1", subagent.ResultTool, map[string]any{"file": "a.go"})),
		calls(call("r2", subagent.ResultTool, map[string]any{"file": 1, "line": 1})),
		answer("never asked"))
	if _, err := f.prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if n := len(f.model.requestsOf("where")); n != 3 {
		t.Errorf("the child made %d requests, want 3", n)
	}
	r := f.result("t1")
	if !r.IsError || r.Code != registry.CodeInvalidToolOutput {
		t.Fatalf("task result = %+v, want INVALID_TOOL_OUTPUT", r)
	}
	mustContain(t, "the failure", text(r), "in 3 tries", `"file" must be a string`)
	if strings.Contains(text(r), "missing required") {
		t.Errorf("the failure %q names an earlier try's violations", text(r))
	}
}
