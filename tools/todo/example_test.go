package todo_test

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/todo"
)

func ExampleTool() {
	tool, _ := todo.Tool(func(items []todo.Item) {
		for _, it := range items {
			fmt.Printf("[%s] %s (%s)\n", it.Status, it.Content, it.Priority)
		}
	})
	reg := registry.New()
	reg.Register(nil, tool)
	r := pipeline.New(reg, pipeline.Options{}).Execute(context.Background(), pipeline.Input{
		CallID: "call_1", Name: todo.Name,
		Arguments: `{"todos":[{"content":"write the test","status":"in_progress"},{"content":"fix the bug","status":"pending","priority":"high"}]}`,
	})
	fmt.Println(presentation.JoinText(r.Content))
	// Output:
	// [in_progress] write the test (medium)
	// [pending] fix the bug (high)
	// Updated the todo list: 2 items (0 completed, 1 in progress, 1 pending).
}
