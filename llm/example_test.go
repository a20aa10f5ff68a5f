package llm_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/llm"
)

func ExampleScripted() {
	script := `{"reasoning":"The user wants a listing.","text":"Let me look.","tool_calls":[{"name":"glob","arguments":{"pattern":"*.go"}}]}
{"text":"There are two Go files."}
`
	p, err := llm.ReadScript(strings.NewReader(script), "example.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	for range 3 {
		s, err := p.Stream(ctx, llm.Request{Messages: []llm.Message{llm.UserMessage("list the Go files")}})
		if err != nil {
			fmt.Println(err)
			return
		}
		resp, err := llm.Collect(s, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %q", resp.FinishReason, resp.Message.Content)
		for _, c := range resp.Message.ToolCalls {
			fmt.Printf(" %s %s(%s)", c.ID, c.Name, c.Arguments)
		}
		fmt.Println()
	}
	// Output:
	// tool_calls: "Let me look." call_1_0 glob({"pattern":"*.go"})
	// stop: "There are two Go files."
	// stop: ""
}
