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

// A Redactor hides the configured key, bearer tokens and sk-style keys in
// text bound for a log or a user.
func ExampleRedactor() {
	red := llm.Config{APIKey: "local-key-Zq8wX2vN"}.Redactor()
	fmt.Println(red.String("401: Authorization: Bearer sk-3f9a1c0d5e7b4a2c9d8e; key=local-key-Zq8wX2vN"))
	// Output: 401: Authorization: Bearer [REDACTED]; key=[REDACTED]
}
