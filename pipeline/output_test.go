package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// badJSON is a value whose JSON encoding fails.
type badJSON struct{}

func (badJSON) MarshalJSON() ([]byte, error) { return nil, errors.New("cannot encode") }

// hostileError is an error whose message itself panics.
type hostileError struct{}

func (hostileError) Error() string { panic("no message for you") }

func TestSuccessPathAndOutputContract(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		setup func(t *testing.T, f *fixture)
		call  string // tool name; "echo" when empty
		args  string
		want  want
	}{
		{
			name: "C4 execute returns content and value",
			args: `{"text":"hi"}`,
			want: want{content: "hi", value: `"hi"`},
		},
		{
			name: "C5 presentation meta rides on the result",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "meta"
					s.PresentationMeta = func(a textArgs, v string) (any, error) { return map[string]any{"len": len(v)}, nil }
				})
			},
			call: "meta", args: `{"text":"hi"}`,
			want: want{content: "hi", value: `"hi"`, meta: `{"len":2}`},
		},
		{
			name: "C7 non-lossless meta",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "meta"
					s.PresentationMeta = func(textArgs, string) (any, error) { return math.NaN(), nil }
				})
			},
			call: "meta", args: `{"text":"hi"}`,
			want: want{content: `Error: tool "meta" returned invalid output: output.presentationMeta returned non-lossless JSON`, isError: true, code: registry.CodeInvalidToolOutput, value: "-"},
		},
		{
			name: "C11 lossy body value",
			setup: func(t *testing.T, f *fixture) {
				tool, err := registry.Define(registry.Spec[textArgs, float64]{
					Name:    "lossy",
					Handler: func(context.Context, *registry.Call, textArgs) (float64, error) { return math.Inf(1), nil },
				})
				if err != nil {
					t.Fatal(err)
				}
				f.reg.Register(nil, tool)
			},
			call: "lossy", args: `{"text":"x"}`,
			want: want{content: `Error: tool "lossy" returned invalid output: value is not lossless JSON`, isError: true, code: registry.CodeInvalidToolOutput, value: "-"},
		},
		{
			name: "C11 raw value against its schema",
			setup: func(t *testing.T, f *fixture) {
				f.raw(t, "raw", `{"type":"string"}`, func(context.Context, *registry.Call, registry.Arguments) (any, error) { return 5, nil })
			},
			call: "raw",
			want: want{content: `Error: tool "raw" returned invalid output: "value" must be a string`, isError: true, code: registry.CodeInvalidToolOutput, value: "-"},
		},
		{
			name: "C12 value snapshot fails",
			setup: func(t *testing.T, f *fixture) {
				f.raw(t, "raw", "", func(context.Context, *registry.Call, registry.Arguments) (any, error) { return badJSON{}, nil })
			},
			call: "raw",
			want: want{contains: "value snapshot failed: ", isError: true, code: registry.CodeInvalidToolOutput, value: "-"},
		},
		{
			name: "C13 render fails",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "render"
					s.Render = func(textArgs, string) ([]presentation.ContentBlock, error) { return nil, errors.New("render broke") }
				})
			},
			call: "render", args: `{"text":"x"}`,
			want: want{content: `Error: tool "render" returned invalid output: output.render failed: render broke`, isError: true, code: registry.CodeInvalidToolOutput, value: "-"},
		},
		{
			name: "C13 presentation meta panics",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "meta"
					s.PresentationMeta = func(textArgs, string) (any, error) { panic("meta broke") }
				})
			},
			call: "meta", args: `{"text":"x"}`,
			want: want{content: `Error: tool "meta" returned invalid output: output.presentationMeta failed: meta broke`, isError: true, code: registry.CodeInvalidToolOutput, value: "-"},
		},
		{
			name: "C14 render returns content that is not JSON",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "render"
					s.Render = func(textArgs, string) ([]presentation.ContentBlock, error) {
						return []presentation.ContentBlock{presentation.UnknownBlock{Type: "x", JSON: "{"}}, nil
					}
				})
			},
			call: "render", args: `{"text":"x"}`,
			want: want{content: `Error: tool "render" returned invalid output: output.render returned non-lossless JSON`, isError: true, code: registry.CodeInvalidToolOutput, value: "-"},
		},
		{
			name: "C25 nested calls get no meta",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "meta"
					s.PresentationMeta = func(textArgs, string) (any, error) { return 1, nil }
				})
			},
			call: "nested:meta", args: `{"text":"x"}`,
			want: want{content: "x", value: `"x"`},
		},
		{
			name: "C26 a nested call concludes the turn",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "stop"
					s.Handler = func(_ context.Context, call *registry.Call, a textArgs) (string, error) {
						call.ConcludeTurn()
						return a.Text, nil
					}
				})
			},
			call: "nested:stop", args: `{"text":"x"}`,
			want: want{content: "x", value: `"x"`, concludes: true},
		},
		{
			name: "C27 unknown tool",
			call: "nope",
			want: want{content: `Error: unknown tool "nope"`, isError: true, code: registry.CodeUnknownTool, value: "-"},
		},
		{
			name: "C27 C124 a failing tool",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "fail"
					s.Handler = func(context.Context, *registry.Call, textArgs) (string, error) { return "", errors.New("exploded") }
				})
			},
			call: "fail", args: `{"text":"x"}`,
			want: want{content: "Error: exploded", isError: true, value: "-"},
		},
		{
			name: "C28 an error whose message panics",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "fail"
					s.Handler = func(context.Context, *registry.Call, textArgs) (string, error) { return "", hostileError{} }
				})
			},
			call: "fail", args: `{"text":"x"}`,
			want: want{content: "Error: the tool failed with a pipeline_test.hostileError whose Error method panicked: no message for you", isError: true, value: "-"},
		},
		{
			name: "C103 C104 a panicking tool",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "fail"
					s.Handler = func(context.Context, *registry.Call, textArgs) (string, error) { panic("string panic") }
				})
			},
			call: "fail", args: `{"text":"x"}`,
			want: want{content: "Error: string panic", isError: true, value: "-"},
		},
		{
			name: "C105 a panic with a non-error value",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "fail"
					s.Handler = func(context.Context, *registry.Call, textArgs) (string, error) { panic(struct{ A int }{7}) }
				})
			},
			call: "fail", args: `{"text":"x"}`,
			want: want{content: "Error: {7}", isError: true, value: "-"},
		},
		{
			name: "C119 C122 invalid arguments",
			args: `{}`,
			want: want{content: `Error: invalid arguments: missing required property "text"`, isError: true, code: registry.CodeInvalidArgs, value: "-"},
		},
		{
			name: "C123 a coded error keeps its code",
			setup: func(t *testing.T, f *fixture) {
				f.echo(t, func(s *echoSpec) {
					s.Name = "fail"
					s.Handler = func(context.Context, *registry.Call, textArgs) (string, error) {
						return "", &registry.Error{Code: "ENOSPC", Message: "disk full"}
					}
				})
			},
			call: "fail", args: `{"text":"x"}`,
			want: want{content: "Error: disk full", isError: true, code: "ENOSPC", value: "-"},
		},
		{
			name: "C65 C204 lossy arguments",
			args: `{"text":"x","n":1e400}`,
			want: want{contains: "Error: tool execution arguments must be losslessly JSON-serializable", isError: true, value: "-"},
		},
		{
			name: "negative zero arguments",
			args: `{"text":"x","n":-0}`,
			want: want{contains: "Error: tool execution arguments must be losslessly JSON-serializable", isError: true, value: "-"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, pipeline.Options{})
			f.echo(t, nil)
			if tt.setup != nil {
				tt.setup(t, f)
			}
			name := tt.call
			if name == "" {
				name = "echo"
			}
			in := pipeline.Input{CallID: "call_1", Name: name, Arguments: tt.args, Scope: f.agent}
			if len(name) > 7 && name[:7] == "nested:" {
				in.Name = name[7:]
				in.Parent = registry.NewCall(registry.CallSpec{ID: "parent", Name: "composite"})
			}
			r := f.p.Execute(ctx, in)
			check(t, r, tt.want)
			// C4, C203: observers see exactly one equal result.
			seen := f.results()
			if len(seen) != 1 || text(seen[0]) != text(r) || seen[0].IsError != r.IsError || seen[0].Value != r.Value {
				t.Errorf("observers saw %+v, want one result equal to %+v", seen, r)
			}
		})
	}
}

func TestFinalizer(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		edit     func(s *echoSpec)
		finalize registry.Finalizer
		args     string
		want     want
	}{
		{
			name: "C8 a failed meta still finalizes once",
			edit: func(s *echoSpec) {
				s.PresentationMeta = func(textArgs, string) (any, error) { return nil, errors.New("bad meta") }
			},
			finalize: func(_ *registry.Call, r presentation.ToolResult) ([]presentation.ContentBlock, bool) {
				s := presentation.JoinText(r.Content)
				if len(s) > 32 {
					s = s[:32]
				}
				return []presentation.ContentBlock{presentation.Text(s)}, true
			},
			args: `{"text":"x"}`,
			want: want{content: `Error: tool "echo" returned inva`, isError: true, code: registry.CodeInvalidToolOutput, value: "-"},
		},
		{
			name: "C9 a panicking finalizer",
			finalize: func(*registry.Call, presentation.ToolResult) ([]presentation.ContentBlock, bool) {
				panic(errors.New("finalizer violated its total contract"))
			},
			args: `{"text":"x"}`,
			want: want{content: "Error: finalizer violated its total contract", isError: true, value: "-"},
		},
		{
			name:     "C43 a finalizer that keeps the content",
			finalize: func(*registry.Call, presentation.ToolResult) ([]presentation.ContentBlock, bool) { return nil, false },
			args:     `{"text":"x"}`,
			want:     want{content: "x", value: `"x"`},
		},
		{
			name: "finalizer on denied arguments",
			finalize: func(_ *registry.Call, r presentation.ToolResult) ([]presentation.ContentBlock, bool) {
				return []presentation.ContentBlock{presentation.Text("final: " + presentation.JoinText(r.Content))}, true
			},
			args: `{"text":"x","n":1e999}`,
			want: want{contains: "final: Error: tool execution arguments must be losslessly", isError: true, value: "-"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, pipeline.Options{})
			calls := 0
			f.echo(t, func(s *echoSpec) {
				if tt.edit != nil {
					tt.edit(s)
				}
				s.Finalize = func(c *registry.Call, r presentation.ToolResult) ([]presentation.ContentBlock, bool) {
					calls++
					return tt.finalize(c, r)
				}
			})
			check(t, f.run(ctx, "echo", tt.args), tt.want)
			if calls != 1 {
				t.Errorf("finalizer ran %d times, want 1", calls)
			}
		})
	}
}

func TestObserversCannotChangeTheResult(t *testing.T) {
	// C203: each observer gets its own copy; a panicking observer is contained.
	f := newFixture(t, pipeline.Options{})
	f.echo(t, nil)
	f.p.Observe(nil, func(_ *registry.Call, r pipeline.Result) {
		r.Content[0] = presentation.Text("tampered")
		panic("observer exploded")
	})
	var second pipeline.Result
	f.p.Observe(nil, func(_ *registry.Call, r pipeline.Result) { second = r })
	r := f.run(context.Background(), "echo", `{"text":"hi"}`)
	if text(r) != "hi" || text(second) != "hi" {
		t.Errorf("result %q, later observer %q; want both untouched", text(r), text(second))
	}
}

// A failure always reads as one, even when there is no error to describe
// or its Error method panics; a coded error gives its code, nothing else.
func TestErrorResultMessages(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want want
	}{
		{"nil error", nil, want{content: "Error: the tool failed without an error", isError: true, value: "-"}},
		{"panicking Error method", hostileError{}, want{content: "Error: the tool failed with a pipeline_test.hostileError whose Error method panicked: no message for you", isError: true, value: "-"}},
		{"wrapped coded error", fmt.Errorf("saving: %w", registry.NewError("ENOSPC", "disk full")), want{content: "Error: saving: disk full", isError: true, code: "ENOSPC", value: "-"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, pipeline.ErrorResult(tt.err), tt.want)
		})
	}
}
