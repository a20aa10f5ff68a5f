//go:build linux

package mcp

import (
	"context"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// TestApproval runs an MCP call through the policy the app installs: it
// asks under every preset but full access, and runs only when allowed.
func TestApproval(t *testing.T) {
	s := newSession(t, []Server{stdioServer("guarded", nil)}, Options{})
	ws, err := workspace.New(t.TempDir(), nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		preset  policy.Preset
		answer  pipeline.ApprovalOutcome
		asked   bool
		isError bool
	}{
		{policy.ReadOnly, pipeline.ApprovalAllowedOnce, true, false},
		{policy.WorkspaceWrite, pipeline.ApprovalAllowedOnce, true, false},
		{policy.WorkspaceWrite, pipeline.ApprovalRejected, true, true},
		{policy.FullAccess, pipeline.ApprovalRejected, false, false},
	}
	for _, c := range cases {
		var asked []pipeline.ApprovalRequest
		p := pipeline.New(s.reg, pipeline.Options{Approver: pipeline.ApproverFunc(
			func(_ context.Context, req pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
				asked = append(asked, req)
				return c.answer, nil
			})})
		p.UsePreExecute(s.scope, policy.New(s.reg, ws, c.preset).PreExecute)
		r := p.Execute(context.Background(), pipeline.Input{CallID: "1", Name: "mcp__guarded__echo", Arguments: `{"text":"x"}`, Scope: s.scope})
		if (len(asked) == 1) != c.asked || r.IsError != c.isError {
			t.Errorf("%s answering %v: asked %d times, isError %v %v", c.preset, c.answer, len(asked), r.IsError, r.Content)
		}
		if len(asked) == 1 && (asked[0].ToolName != "mcp__guarded__echo" || !strings.Contains(asked[0].Reason, "another program serves (an MCP server)")) {
			t.Errorf("approval request %+v", asked[0])
		}
	}
}
