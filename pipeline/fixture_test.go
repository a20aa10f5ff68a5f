package pipeline_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

type textArgs struct {
	Text string `json:"text"`
}

type echoSpec = registry.Spec[textArgs, string]

// fixture is a registry, a pipeline over it, an agent scope, and a record
// of every result the observers saw.
type fixture struct {
	reg   *registry.Registry
	p     *pipeline.Pipeline
	agent *registry.Scope

	// unregister undoes the latest echo registration.
	unregister func()

	mu       sync.Mutex
	observed []pipeline.Result
}

func newFixture(t *testing.T, opts pipeline.Options) *fixture {
	t.Helper()
	f := &fixture{reg: registry.New()}
	f.p = pipeline.New(f.reg, opts)
	f.agent = f.reg.NewScope("agent", nil)
	f.p.Observe(nil, func(_ *registry.Call, r pipeline.Result) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.observed = append(f.observed, r)
	})
	return f
}

// echo registers a typed tool "echo" (or spec.Name) that returns its text,
// after edit adjusts the spec.
func (f *fixture) echo(t *testing.T, edit func(*echoSpec)) *registry.Tool {
	t.Helper()
	spec := echoSpec{
		Name:        "echo",
		Description: "Say the text back.",
		Handler: func(_ context.Context, _ *registry.Call, a textArgs) (string, error) {
			return a.Text, nil
		},
	}
	if edit != nil {
		edit(&spec)
	}
	tool, err := registry.Define(spec)
	if err != nil {
		t.Fatalf("Define: %v", err)
	}
	dispose, err := f.reg.Register(nil, tool)
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	f.unregister = dispose
	return tool
}

// raw registers a raw tool whose value must satisfy outSchema.
func (f *fixture) raw(t *testing.T, name, outSchema string, body func(context.Context, *registry.Call, registry.Arguments) (any, error)) {
	t.Helper()
	tool, err := registry.DefineRaw(registry.RawSpec{
		Name: name,
		Output: registry.RawOutput{
			Schema: outSchema,
			Render: func(_ registry.Arguments, v jsonvalue.Value) ([]presentation.ContentBlock, error) {
				return []presentation.ContentBlock{presentation.Text("render:" + v.Canonical())}, nil
			},
		},
		Execute: body,
	})
	if err != nil {
		t.Fatalf("DefineRaw: %v", err)
	}
	if _, err := f.reg.Register(nil, tool); err != nil {
		t.Fatalf("Register: %v", err)
	}
}

func (f *fixture) run(ctx context.Context, name, args string) pipeline.Result {
	return f.p.Execute(ctx, pipeline.Input{CallID: "call_1", Name: name, Arguments: args, Scope: f.agent})
}

func (f *fixture) results() []pipeline.Result {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]pipeline.Result(nil), f.observed...)
}

// text returns the result's content as one string.
func text(r pipeline.Result) string {
	return presentation.JoinText(r.Content)
}

// want checks the parts of a result a case cares about.
type want struct {
	content   string // exact content text, if set
	contains  string // substring of the content text, if set
	isError   bool
	code      string
	value     string // canonical JSON; "-" for none
	meta      string
	contexts  []string
	concludes bool
}

func check(t *testing.T, r pipeline.Result, w want) {
	t.Helper()
	got := text(r)
	if w.content != "" && got != w.content {
		t.Errorf("content = %q, want %q", got, w.content)
	}
	if w.contains != "" && !strings.Contains(got, w.contains) {
		t.Errorf("content = %q, want it to contain %q", got, w.contains)
	}
	if r.IsError != w.isError {
		t.Errorf("isError = %v, want %v (content %q)", r.IsError, w.isError, got)
	}
	if r.IsError && r.Error == nil {
		t.Errorf("a failed result has no Error")
	}
	if r.Code() != w.code {
		t.Errorf("code = %q, want %q", r.Code(), w.code)
	}
	switch w.value {
	case "":
	case "-":
		if r.Value != "" {
			t.Errorf("value = %s, want none", r.Value)
		}
	default:
		if r.Value != w.value {
			t.Errorf("value = %s, want %s", r.Value, w.value)
		}
	}
	if w.meta != "" && r.Meta != w.meta {
		t.Errorf("meta = %q, want %q", r.Meta, w.meta)
	}
	if w.contexts != nil {
		var texts []string
		for _, c := range r.AdditionalContexts {
			texts = append(texts, presentation.JoinText(c.Content))
		}
		if strings.Join(texts, "|") != strings.Join(w.contexts, "|") {
			t.Errorf("contexts = %q, want %q", texts, w.contexts)
		}
	}
	if r.ConcludesTurn != w.concludes {
		t.Errorf("concludesTurn = %v, want %v", r.ConcludesTurn, w.concludes)
	}
}

// mustRaw defines a raw tool "raw" with the given classifier.
func mustRaw(t *testing.T, classifier func(registry.Arguments) bool) *registry.Tool {
	t.Helper()
	tool, err := registry.DefineRaw(registry.RawSpec{
		Name: "raw",
		Output: registry.RawOutput{Render: func(_ registry.Arguments, v jsonvalue.Value) ([]presentation.ContentBlock, error) {
			return []presentation.ContentBlock{presentation.Text(v.Canonical())}, nil
		}},
		Execute:         func(context.Context, *registry.Call, registry.Arguments) (any, error) { return nil, nil },
		ConcurrencySafe: classifier,
	})
	if err != nil {
		t.Fatalf("DefineRaw: %v", err)
	}
	return tool
}
