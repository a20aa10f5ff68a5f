package agent_test

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

func ExampleAgent_Prompt() {
	type addArgs struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	add, _ := registry.Define(registry.Spec[addArgs, int]{
		Name:    "add",
		Handler: func(_ context.Context, _ *registry.Call, a addArgs) (int, error) { return a.A + a.B, nil },
	})
	reg := registry.New()
	scope := reg.NewScope("session", nil)
	reg.Register(scope, add)

	// A scripted model: one tool call, then an answer.
	model := llm.NewScripted(
		llm.Message{ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "add", Arguments: `{"a":2,"b":3}`}}},
		llm.Message{Content: "2 + 3 = 5"},
	)
	log := session.NewLog(nil)
	a, _ := agent.New(agent.Options{Provider: model, Pipeline: pipeline.New(reg, pipeline.Options{}), Scope: scope, Log: log})

	reason, err := a.Prompt(context.Background(), []presentation.ContentBlock{presentation.Text("what is 2 + 3?")})
	fmt.Println(reason, err)
	for _, ev := range log.Events() {
		switch p := ev.Payload.(type) {
		case session.ToolCall:
			fmt.Println("call", p.Name, p.Arguments)
		case session.ToolResult:
			fmt.Println("result", presentation.JoinText(p.Content))
		case session.TurnEnded:
			fmt.Println("end", p.Reason)
		}
	}
	// Output:
	// end_turn <nil>
	// call add {"a":2,"b":3}
	// result 5
	// end end_turn
}
