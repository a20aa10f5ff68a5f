package app_test

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/tools/planmode"
)

// Plan mode's refusals name the tool the session offers.
func TestPlanModeRefusalsNameTheTool(t *testing.T) {
	if planmode.Name != policy.PlanExitTool {
		t.Errorf("the tool is %q, the policy's refusals name %q", planmode.Name, policy.PlanExitTool)
	}
}
