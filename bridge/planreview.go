package bridge

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// PlanReviewer asks the user whether to implement the plan the model
// presents in plan mode (the exit_plan_mode tool's reviewer): see
// liveSession.ReviewPlan.
type PlanReviewer interface {
	ReviewPlan(ctx context.Context, call *registry.Call, plan string) (switchedTo string, err error)
}

// planReviewOptions are the answers a plan review offers, with the ids
// of the permission options (allow-once, reject-once), so a client that
// answers by id or kind answers it as it answers any request.
func planReviewOptions() []acp.PermissionOption {
	return []acp.PermissionOption{
		{OptionID: optionAllowOnce, Name: "Implement the plan", Kind: acp.PermissionOptionKindAllowOnce},
		{OptionID: optionRejectOnce, Name: "Keep planning", Kind: acp.PermissionOptionKindRejectOnce},
	}
}

// planReviewTitle is the title of the plan review's card (the tool's own
// card says the same, so the request does not retitle it).
const planReviewTitle = "Review the plan"

// ReviewPlan asks the user, with a session/request_permission about
// call (kind switch_mode, the plan as its content), whether to
// implement plan. "Implement the plan" switches the session to the
// preset it had before plan mode (workspace-write when it never had
// another) the way the user's own switch does (switchMode: logged,
// stored, and config_option_update and current_mode_update sent) and
// returns that preset; "Keep planning", or any other answer, leaves the
// session in plan mode and returns "". A cancelled outcome cancels the
// whole turn, as session/cancel does, and a cancelled turn withdraws the
// request: both return the context's error. A session the user took out
// of plan mode meanwhile stays in the mode they chose.
func (s *liveSession) ReviewPlan(ctx context.Context, call *registry.Call, plan string) (string, error) {
	resp, err := s.client.RequestPermission(ctx, acp.RequestPermissionRequest{
		SessionID: s.id,
		ToolCall: acp.ToolCall{
			ToolCallID: call.ID(), Name: call.Name(), Title: planReviewTitle, Kind: acp.ToolKindSwitchMode,
			RawInput: rawInput(call.Arguments().JSON()),
			Content:  []acp.ToolCallContent{textItem(plan)},
		},
		Options: planReviewOptions(),
	})
	switch {
	case ctx.Err() != nil:
		return "", ctx.Err()
	case err != nil:
		return "", fmt.Errorf("request permission: %w", err)
	case resp.Outcome.Cancelled != nil:
		s.cancel()
		return "", context.Canceled
	case resp.Outcome.Selected == nil || resp.Outcome.Selected.OptionId != optionAllowOnce:
		return "", nil
	}
	current := s.currentSettings().Preset
	if current != policy.Plan {
		return string(current), nil
	}
	to := s.presetBeforePlan()
	if err := s.bridge.switchMode(s.id, string(to)); err != nil {
		return "", fmt.Errorf("switch to %s: %w", to, err)
	}
	return string(to), nil
}

// presetBeforePlan is the preset to go back to from plan mode: the one
// the session had when it entered it, workspace-write when it never had
// another.
func (s *liveSession) presetBeforePlan() policy.Preset {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.beforePlan == "" || s.beforePlan == policy.Plan {
		return policy.WorkspaceWrite
	}
	return s.beforePlan
}

// loggedBeforePlan is the preset a stored session had when it last
// entered plan mode, as the settings its log recorded tell; "" when
// they do not.
func loggedBeforePlan(history []session.Event) policy.Preset {
	var current, before policy.Preset
	for _, ev := range history {
		c, ok := ev.Payload.(session.SettingChanged)
		if !ok || c.Setting != optionMode {
			continue
		}
		p, err := policy.ParsePreset(c.Value)
		if err != nil {
			continue
		}
		if p == policy.Plan && current != policy.Plan {
			before = current
		}
		current = p
	}
	return before
}
