package ask_test

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/ask"
)

func ExampleTool() {
	// An Asker that picks the last option of every question.
	asker := askerFunc(func(_ context.Context, req ask.Request) (ask.Reply, error) {
		reply := ask.Reply{Outcome: ask.Answered}
		for _, q := range req.Questions {
			reply.Answers = append(reply.Answers, ask.Answer{Selected: q.Options[len(q.Options)-1:]})
		}
		return reply, nil
	})
	tool, _ := ask.Tool(asker)
	reg := registry.New()
	reg.Register(nil, tool)
	r := pipeline.New(reg, pipeline.Options{}).Execute(context.Background(), pipeline.Input{
		CallID: "call_1", Name: ask.Name,
		Arguments: `{"questions":[{"question":"Which database should the cache use?","options":["PostgreSQL","SQLite"]}]}`,
	})
	fmt.Println(presentation.JoinText(r.Content))
	// Output:
	// The user answered:
	// 1. Which database should the cache use?
	//    Answer: SQLite
}
