package pipeline_test

import (
	"context"

	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
)

func TestExecutionMode(t *testing.T) {
	tests := []struct {
		name       string
		classifier func(textArgs) bool
		raw        func(registry.Arguments) bool
		tool       string
		args       string
		want       pipeline.ExecutionMode
	}{
		{name: "C169 true is parallel", classifier: func(textArgs) bool { return true }, args: `{"text":"x"}`, want: pipeline.Parallel},
		{name: "C170 no classifier is exclusive", args: `{"text":"x"}`, want: pipeline.Exclusive},
		{name: "C171 an unknown tool is exclusive", tool: "nope", args: `{}`, want: pipeline.Exclusive},
		{name: "C172 false is exclusive", classifier: func(textArgs) bool { return false }, args: `{"text":"x"}`, want: pipeline.Exclusive},
		{name: "C173 invalid arguments are exclusive", classifier: func(textArgs) bool { return true }, args: `{"text":1}`, want: pipeline.Exclusive},
		{name: "C174 a panicking raw classifier is exclusive", raw: func(registry.Arguments) bool { panic("classifier") }, tool: "raw", args: `{}`, want: pipeline.Exclusive},
		{name: "C176 a raw classifier gets the arguments as they are", raw: func(a registry.Arguments) bool { return a.InvalidJSON() != nil }, tool: "raw", args: `{oops`, want: pipeline.Parallel},
		{name: "lossy arguments are exclusive", classifier: func(textArgs) bool { return true }, args: `{"text":"x","n":-0}`, want: pipeline.Exclusive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, pipeline.Options{})
			f.echo(t, func(s *echoSpec) { s.ConcurrencySafe = tt.classifier })
			if tt.raw != nil {
				if _, err := f.reg.Register(nil, mustRaw(t, tt.raw)); err != nil {
					t.Fatal(err)
				}
			}
			name := tt.tool
			if name == "" {
				name = "echo"
			}
			if got := f.p.ExecutionMode(pipeline.Input{Name: name, Arguments: tt.args, Scope: f.agent}); got != tt.want {
				t.Errorf("mode = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMaterializedArgumentsAreUsedAsGiven(t *testing.T) {
	// A scheduler that already materialized the arguments hands them over;
	// the pipeline does not parse the text again.
	f := newFixture(t, pipeline.Options{})
	f.echo(t, func(s *echoSpec) { s.ConcurrencySafe = func(textArgs) bool { return true } })
	args, err := registry.MaterializeArguments(`{"text":"given"}`)
	if err != nil {
		t.Fatal(err)
	}
	in := pipeline.Input{CallID: "c", Name: "echo", Arguments: `not read`, Materialized: &args}
	if got := f.p.ExecutionMode(in); got != pipeline.Parallel {
		t.Errorf("mode = %v", got)
	}
	check(t, f.p.Execute(context.Background(), in), want{content: "given", value: `"given"`})
}
