package pipeline_test

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

func ExamplePipeline_Execute() {
	type shoutArgs struct {
		Text string `json:"text"`
	}
	shout, _ := registry.Define(registry.Spec[shoutArgs, string]{
		Name: "shout",
		Handler: func(_ context.Context, _ *registry.Call, a shoutArgs) (string, error) {
			return a.Text + "!", nil
		},
	})
	reg := registry.New()
	reg.Register(nil, shout)
	agent := reg.NewScope("agent", nil)

	// The user approves every ask.
	approver := pipeline.ApproverFunc(func(context.Context, pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
		return pipeline.ApprovalAllowedOnce, nil
	})
	p := pipeline.New(reg, pipeline.Options{Approver: approver})
	p.UsePreExecute(nil, func(ctx context.Context, call *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
		return pipeline.Ask("shouting is loud"), nil
	})

	ctx := context.Background()
	ok := p.Execute(ctx, pipeline.Input{CallID: "call_1", Name: "shout", Arguments: `{"text":"hi"}`, Scope: agent})
	fmt.Println(presentation.JoinText(ok.Content), ok.Value)

	bad := p.Execute(ctx, pipeline.Input{CallID: "call_2", Name: "shout", Arguments: `{"txt":"hi"}`, Scope: agent})
	fmt.Println(presentation.JoinText(bad.Content), bad.Error.Code)
	// Output:
	// hi! "hi!"
	// Error: invalid arguments: missing required property "text" INVALID_ARGS
}
