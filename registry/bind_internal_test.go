package registry

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// countingValidator counts the validations it passes on.
type countingValidator struct {
	next validator
	n    *int
}

func (c countingValidator) Validate(v jsonvalue.Value, path string) []string {
	*c.n++
	return c.next.Validate(v, path)
}

// countedDecodes counts every decode of a countedTarget; only
// TestBindValidatesAndDecodesOnce decodes one.
var countedDecodes atomic.Int64

type countedTarget struct {
	Path string `json:"path"`
}

func (a *countedTarget) UnmarshalJSON(b []byte) error {
	type plain countedTarget
	countedDecodes.Add(1)
	return json.Unmarshal(b, (*plain)(a))
}

func TestBindValidatesAndDecodesOnce(t *testing.T) {
	tool, err := Define(Spec[countedTarget, string]{
		Name:            "counted",
		Handler:         func(_ context.Context, _ *Call, a countedTarget) (string, error) { return a.Path, nil },
		ConcurrencySafe: func(countedTarget) bool { return true },
		Paths:           func(a countedTarget) []string { return []string{a.Path} },
		PresentCall:     func(a countedTarget) presentation.CallView { return presentation.GenericCallView{Title: a.Path} },
		PresentResult: func(a countedTarget, _ presentation.ToolResult) presentation.ResultView {
			return presentation.GenericResultView{Title: a.Path}
		},
		PresentationMeta: func(a countedTarget, v string) (any, error) { return map[string]string{"path": a.Path}, nil },
		Render: func(a countedTarget, v string) ([]presentation.ContentBlock, error) {
			return []presentation.ContentBlock{presentation.Text(a.Path + ":" + v)}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	validations := 0
	typ := tool.behavior.(*typed[countedTarget, string])
	typ.params = countingValidator{next: typ.params, n: &validations}
	args, err := MaterializeArguments(`{"path":"a.go"}`)
	if err != nil {
		t.Fatal(err)
	}
	before := countedDecodes.Load()
	b, err := tool.Bind(args)
	if err != nil {
		t.Fatal(err)
	}
	call := NewCall(CallSpec{ID: "c", Name: "counted", Bound: b})
	if call.Arguments().JSON() != args.JSON() || call.Bound().Tool() != tool {
		t.Errorf("the call does not carry its binding")
	}
	if !b.ConcurrencySafe() || b.PresentCall() == nil || b.PresentResult(presentation.ToolResult{}) == nil {
		t.Errorf("the binding did not answer")
	}
	if paths, ok := b.Paths(); !ok || len(paths) != 1 {
		t.Errorf("Paths = %v, %v", paths, ok)
	}
	out, err := b.Run(context.Background(), call)
	if err != nil || out.Value != `"a.go"` || out.Meta != `{"path":"a.go"}` {
		t.Fatalf("Run = %+v, %v", out, err)
	}
	if out, err := b.Revalidate(`"b.go"`, true); err != nil || presentation.JoinText(out.Content) != "a.go:b.go" {
		t.Fatalf("Revalidate = %+v, %v", out, err)
	}
	if validations != 1 {
		t.Errorf("validations = %d, want 1", validations)
	}
	if n := countedDecodes.Load() - before; n != 1 {
		t.Errorf("decodes = %d, want 1", n)
	}
}
