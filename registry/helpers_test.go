package registry_test

import (
	"context"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

type textArgs struct {
	Text string `json:"text"`
}

// echo defines a typed tool called name that returns its text.
func echo(t *testing.T, name string) *registry.Tool {
	t.Helper()
	tool, err := registry.Define(registry.Spec[textArgs, string]{
		Name:        name,
		Description: "Say " + name + " back.",
		Handler: func(_ context.Context, _ *registry.Call, args textArgs) (string, error) {
			return args.Text, nil
		},
	})
	if err != nil {
		t.Fatalf("Define(%s): %v", name, err)
	}
	return tool
}

// rawTool defines a raw tool called name whose body returns value.
func rawTool(t *testing.T, name string, value any) *registry.Tool {
	t.Helper()
	tool, err := registry.DefineRaw(registry.RawSpec{
		Name:       name,
		Parameters: `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`,
		Output: registry.RawOutput{
			Render: func(_ registry.Arguments, v jsonvalue.Value) ([]presentation.ContentBlock, error) {
				return []presentation.ContentBlock{presentation.Text(v.Canonical())}, nil
			},
		},
		Execute: func(context.Context, *registry.Call, registry.Arguments) (any, error) { return value, nil },
	})
	if err != nil {
		t.Fatalf("DefineRaw(%s): %v", name, err)
	}
	return tool
}

func mustRegister(t *testing.T, reg *registry.Registry, scope *registry.Scope, tool *registry.Tool) func() {
	t.Helper()
	dispose, err := reg.Register(scope, tool)
	if err != nil {
		t.Fatalf("Register(%s): %v", tool.Name(), err)
	}
	return dispose
}

func names(tools []*registry.Tool) []string {
	out := make([]string, len(tools))
	for i, tl := range tools {
		out[i] = tl.Name()
	}
	return out
}

func mustArgs(t *testing.T, raw string) registry.Arguments {
	t.Helper()
	args, err := registry.MaterializeArguments(raw)
	if err != nil {
		t.Fatalf("MaterializeArguments(%q): %v", raw, err)
	}
	return args
}

// bind binds args to tool; a failed binding is returned too, as it stands
// for the call.
func bind(tool *registry.Tool, args registry.Arguments) registry.Bound {
	b, _ := tool.Bind(args)
	return b
}

// run binds call's arguments to tool and runs it, as the pipeline does.
func run(tool *registry.Tool, call *registry.Call) (registry.Output, error) {
	b, _ := tool.Bind(call.Arguments())
	return b.Run(context.Background(), call)
}
