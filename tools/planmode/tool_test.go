package planmode_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/planmode"
)

// reviewer answers every review with its mode and error, and keeps what
// it was asked.
type reviewer struct {
	mode    string
	err     error
	callIDs []string
	plans   []string
}

func (r *reviewer) ReviewPlan(_ context.Context, call *registry.Call, plan string) (string, error) {
	r.callIDs = append(r.callIDs, call.ID())
	r.plans = append(r.plans, plan)
	return r.mode, r.err
}

func TestExitPlanMode(t *testing.T) {
	tests := []struct {
		name       string
		inPlanMode bool
		args       string
		reviewer   reviewer
		wantText   string
		wantError  bool
		wantAsked  bool
		wantCard   string // the line the finished card shows; "" for no card
	}{
		{"implement", true, `{"plan":"  1. Change a.go\n"}`, reviewer{mode: "workspace-write"}, "now in workspace-write mode: implement the plan now, in this turn", false, true, "Plan approved — implementing"},
		{"keep planning", true, `{"plan":"1. Change a.go"}`, reviewer{}, "keep planning: the session stays in plan mode. Revise the plan", false, true, "Keep planning"},
		{"not in plan mode", false, `{"plan":"1. Change a.go"}`, reviewer{}, "NOT_IN_PLAN_MODE", true, false, ""},
		{"blank plan", true, `{"plan":" \n "}`, reviewer{}, "PLAN_EMPTY", true, false, ""},
		{"no plan", true, `{}`, reviewer{}, `missing required property "plan"`, true, false, ""},
		{"the user could not be asked", true, `{"plan":"x"}`, reviewer{err: errors.New("the client went away")}, "the client went away", true, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var shown []string
			rv := tt.reviewer
			tool, err := planmode.Tool(planmode.Options{
				InPlanMode: func() bool { return tt.inPlanMode },
				Show:       func(plan string) { shown = append(shown, plan) },
				Reviewer:   &rv,
			})
			if err != nil {
				t.Fatal(err)
			}
			reg := registry.New()
			if _, err := reg.Register(nil, tool); err != nil {
				t.Fatal(err)
			}
			r := pipeline.New(reg, pipeline.Options{}).Execute(context.Background(), pipeline.Input{CallID: "call-7", Name: planmode.Name, Arguments: tt.args})
			text := r.Code() + " " + presentation.JoinText(r.Content)
			if r.IsError != tt.wantError || !strings.Contains(text, tt.wantText) {
				t.Fatalf("result = %q (isError %v), want %q (isError %v)", text, r.IsError, tt.wantText, tt.wantError)
			}
			checkCard(t, tool, tt.args, r, tt.wantCard)
			if asked := len(rv.plans) > 0; asked != tt.wantAsked {
				t.Fatalf("asked %v, want %v", rv.plans, tt.wantAsked)
			}
			if !tt.wantAsked {
				if len(shown) != 0 {
					t.Errorf("a plan that was not reviewed was shown: %q", shown)
				}
				return
			}
			if rv.callIDs[0] != "call-7" || rv.plans[0] != strings.TrimSpace(rv.plans[0]) || len(shown) != 1 || shown[0] != rv.plans[0] {
				t.Errorf("asked about %q (call %q), shown %q: want the trimmed plan shown once, then asked about, for call-7", rv.plans, rv.callIDs, shown)
			}
		})
	}
}

// checkCard checks the finished call's card: a summary showing want, the
// user's line, in place of the model's instructions; no card when want
// is "".
func checkCard(t *testing.T, tool *registry.Tool, args string, r pipeline.Result, want string) {
	t.Helper()
	a, err := registry.MaterializeArguments(args)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tool.Bind(a)
	if err != nil {
		if want != "" {
			t.Fatalf("bind %s: %v", args, err)
		}
		return
	}
	got := b.PresentResult(presentation.ToolResult{Content: r.Content, IsError: r.IsError, Meta: r.Meta})
	var wantView presentation.ResultView
	if want != "" {
		wantView = presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text(want)}, Summary: true}
	}
	if !reflect.DeepEqual(got, wantView) {
		t.Errorf("card = %#v, want %#v", got, wantView)
	}
}

// A cancelled turn ends the call as cancelled, whatever the reviewer says.
func TestExitPlanModeCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	rv := &cancelling{cancel: cancel}
	tool, err := planmode.Tool(planmode.Options{InPlanMode: func() bool { return true }, Reviewer: rv})
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	if _, err := reg.Register(nil, tool); err != nil {
		t.Fatal(err)
	}
	r := pipeline.New(reg, pipeline.Options{}).Execute(ctx, pipeline.Input{CallID: "c", Name: planmode.Name, Arguments: `{"plan":"x"}`})
	if !r.IsError || strings.Contains(presentation.JoinText(r.Content), "approved") {
		t.Errorf("result = %+v, want a failed call", r)
	}
}

type cancelling struct{ cancel context.CancelFunc }

func (c *cancelling) ReviewPlan(ctx context.Context, _ *registry.Call, _ string) (string, error) {
	c.cancel()
	<-ctx.Done()
	return "workspace-write", nil
}

func TestToolNeedsItsOptions(t *testing.T) {
	if _, err := planmode.Tool(planmode.Options{Reviewer: &reviewer{}}); err == nil {
		t.Error("no InPlanMode: no error")
	}
	if _, err := planmode.Tool(planmode.Options{InPlanMode: func() bool { return true }}); err == nil {
		t.Error("no Reviewer: no error")
	}
}
