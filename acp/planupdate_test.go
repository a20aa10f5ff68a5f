package acp_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

// TestPlanUpdateWire pins the wire form of the unstable plan operations
// and checks each against the unstable schema, as needing the plan
// capability.
func TestPlanUpdateWire(t *testing.T) {
	tests := []struct {
		name   string
		update acp.Update
		want   string
	}{
		{"items", acp.PlanUpdate{Plan: acp.PlanItems{PlanID: "todos", Entries: []acp.PlanEntry{{Content: "a", Priority: "high", Status: "pending"}}}},
			`{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"todos","entries":[{"content":"a","priority":"high","status":"pending"}]}}}`},
		{"no items", acp.PlanUpdate{Plan: acp.PlanItems{PlanID: "todos"}},
			`{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"todos","entries":[]}}}`},
		{"markdown", acp.PlanUpdate{Plan: acp.PlanMarkdown{PlanID: "plan", Content: "# Plan\n1. <a>"}},
			`{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"plan","content":"# Plan\n1. <a>"}}}`},
		{"removed", acp.PlanRemoved{PlanID: "todos"},
			`{"sessionId":"s1","update":{"sessionUpdate":"plan_removed","planId":"todos"}}`},
	}
	schema := mustSchema(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := acp.SessionNotification{SessionID: "s1", Update: tt.update}.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("wire:\n got %s\nwant %s", got, tt.want)
			}
			feature, err := schema.Check(acptest.FromAgent, acptest.Notification, "session/update", got)
			if err != nil || feature != "plan" {
				t.Errorf("Check = %q, %v; want the plan capability", feature, err)
			}
		})
	}
	if _, err := json.Marshal(acp.SessionNotification{SessionID: "s1", Update: acp.PlanUpdate{}}); !errors.Is(err, acp.ErrMissingVariant) {
		t.Errorf("a plan_update without content: %v, want ErrMissingVariant", err)
	}
}
