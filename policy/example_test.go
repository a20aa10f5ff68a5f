package policy_test

import (
	"context"
	"fmt"
	"os"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/workspace"
)

func ExamplePolicy_Decide() {
	dir, _ := os.MkdirTemp("", "policy-example-*")
	defer os.RemoveAll(dir)
	ws, _ := workspace.New(dir, nil, workspace.Local{})

	type cmdArgs struct {
		Command string `json:"command"`
	}
	bash, _ := registry.Define(registry.Spec[cmdArgs, string]{
		Name: "bash", Effect: registry.EffectExecute,
		Handler: func(context.Context, *registry.Call, cmdArgs) (string, error) { return "", nil },
	})
	reg := registry.New()
	reg.Register(nil, bash)

	pol := policy.New(reg, ws, policy.WorkspaceWrite)
	args, _ := registry.MaterializeArguments(`{"command":"go test ./..."}`)
	call := registry.NewCall(registry.CallSpec{ID: "call_1", Name: "bash", Arguments: args})
	fmt.Println(pol.Decide(call).Reason)

	pol.SetPreset(policy.FullAccess)
	fmt.Println(pol.Decide(call).Kind == pipeline.DecisionAllow)
	// Output:
	// bash runs a command; workspace-write asks before every command
	// true
}
