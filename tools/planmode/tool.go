package planmode

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// Name is the tool's model-facing name.
const Name = "exit_plan_mode"

// The error codes of the tool's failures.
const (
	CodeNotInPlanMode = "NOT_IN_PLAN_MODE"
	CodeEmptyPlan     = "PLAN_EMPTY"
)

// Reviewer asks the user about a plan.
type Reviewer interface {
	// ReviewPlan asks the user whether to implement plan (Markdown, shown
	// to them already), which call presents. When they choose
	// to implement it, the session has switched out of plan mode by the
	// time it returns, and switchedTo names the mode it is in now; when
	// they choose to keep planning, switchedTo is "" and err nil. An
	// error says they could not be asked, or cancelled the turn; it must
	// return when ctx ends.
	ReviewPlan(ctx context.Context, call *registry.Call, plan string) (switchedTo string, err error)
}

// Options are what the tool needs of its session.
type Options struct {
	// InPlanMode reports whether the session is in plan mode now.
	// Required.
	InPlanMode func() bool
	// Show, when set, shows the plan to the user before they are asked.
	Show func(plan string)
	// Reviewer asks the user. Required.
	Reviewer Reviewer
}

// Args are the tool's arguments.
type Args struct {
	Plan string `json:"plan" jsonschema:"the plan, in Markdown: what you found, the changes you will make file by file as a numbered list, and how you will check them"`
}

const description = `Present your plan to the user for approval, in plan mode only; on approval the session leaves plan mode.
Call it once you have read what the task needs. The argument plan is Markdown: what you found, the steps you will take as a numbered list (naming the files each one changes), and how you will verify the result. ` +
	`The user either approves it — the session then leaves plan mode and you implement the plan at once, in the same turn — or asks to keep planning: then revise the plan and present it again. ` +
	`Errors: NOT_IN_PLAN_MODE when the session is not in plan mode (do not call it then: just do the task), PLAN_EMPTY when plan is blank.`

// Tool returns the exit_plan_mode tool, or an error when a required
// option is missing. Outside plan mode a call fails with
// CodeNotInPlanMode and asks nothing; a blank plan fails with
// CodeEmptyPlan. The call waits for the user's answer with no timeout
// of its own; a cancelled turn ends it.
func Tool(opts Options) (*registry.Tool, error) {
	switch {
	case opts.InPlanMode == nil:
		return nil, errors.New("planmode: InPlanMode is required")
	case opts.Reviewer == nil:
		return nil, errors.New("planmode: a Reviewer is required")
	}
	return registry.Define(registry.Spec[Args, Outcome]{
		Name:        Name,
		Description: description,
		Effect:      registry.EffectOther,
		Handler: func(ctx context.Context, call *registry.Call, args Args) (Outcome, error) {
			return review(ctx, opts, call, args.Plan)
		},
		Render: func(_ Args, o Outcome) ([]presentation.ContentBlock, error) {
			return []presentation.ContentBlock{presentation.Text(o.instructions())}, nil
		},
		PresentationMeta: func(_ Args, o Outcome) (any, error) { return o, nil },
		PresentCall: func(Args) presentation.CallView {
			return presentation.GenericCallView{Title: "Review the plan", Kind: presentation.KindSwitchMode}
		},
		PresentResult: func(_ Args, r presentation.ToolResult) presentation.ResultView {
			return presentOutcome(r)
		},
	})
}

// review shows the plan, asks the user and says what they answered.
func review(ctx context.Context, opts Options, call *registry.Call, plan string) (Outcome, error) {
	if !opts.InPlanMode() {
		return Outcome{}, &registry.Error{Code: CodeNotInPlanMode, Message: "the session is not in plan mode, so there is no plan to present: " +
			"carry on with the task (the user switches to plan mode when they want to review a plan first)"}
	}
	plan = strings.TrimSpace(plan)
	if plan == "" {
		return Outcome{}, &registry.Error{Code: CodeEmptyPlan, Message: "plan is empty: write the plan in Markdown (what you found, the numbered steps, how you will verify them) and call " + Name + " again"}
	}
	if opts.Show != nil {
		opts.Show(plan)
	}
	mode, err := opts.Reviewer.ReviewPlan(ctx, call, plan)
	switch {
	case ctx.Err() != nil:
		return Outcome{}, ctx.Err()
	case err != nil:
		return Outcome{}, fmt.Errorf("the plan could not be reviewed: %w", err)
	}
	return Outcome{Approved: mode != "", Mode: mode}, nil
}
