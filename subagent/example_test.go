package subagent_test

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/subagent"
)

// A parent agent hands a question to an explore child and reads its
// answer as the task's result. The model is scripted: the parent's step,
// the child's answer, the parent's answer.
func Example() {
	model := llm.NewScripted(
		llm.Message{ToolCalls: []llm.ToolCall{{ID: "t1", Name: "task",
			Arguments: `{"description":"find the entry point","prompt":"Where is main?","subagent_type":"explore"}`}}},
		llm.Message{Content: "main.go:3"},
		llm.Message{Content: "It is in main.go."},
	)
	reg := registry.New()
	scope := reg.NewScope("session", nil)
	defer scope.Close()
	p := pipeline.New(reg, pipeline.Options{})
	log := session.NewLog(nil)
	shared := agent.Options{Provider: model, Cwd: "/home/me/project"}
	runner, err := subagent.New(subagent.Options{
		Pipeline: p, Scope: scope, Log: log, Agent: shared,
		// A real session bounds its children by its permission policy.
		Policy: func(subagent.Type) pipeline.PreExecute {
			return func(ctx context.Context, _ *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
				return next(ctx)
			}
		},
	})
	if err != nil {
		panic(err)
	}
	task, err := runner.Tool()
	if err != nil {
		panic(err)
	}
	if _, err := reg.Register(scope, task); err != nil {
		panic(err)
	}
	parent := shared
	parent.Pipeline, parent.Scope, parent.Log = p, scope, log
	a, err := agent.New(parent)
	if err != nil {
		panic(err)
	}
	if _, err := a.Prompt(context.Background(), []presentation.ContentBlock{presentation.Text("Where does the program start?")}); err != nil {
		panic(err)
	}
	for _, ev := range log.Events() {
		switch e := ev.Payload.(type) {
		case session.SubagentStarted:
			fmt.Printf("started a child (%s): %s\n", e.Type, e.Description)
		case session.ToolResult:
			fmt.Println("task result:", presentation.JoinText(e.Content))
		case session.AssistantMessage:
			if e.Text != "" {
				fmt.Println("parent:", e.Text)
			}
		}
	}
	// Output:
	// started a child (explore): find the entry point
	// task result: main.go:3
	// parent: It is in main.go.
}
