package mcp_test

import (
	"context"
	"fmt"
	"log"

	"github.com/dsh-acp/dsh-acp/mcp"
	"github.com/dsh-acp/dsh-acp/registry"
)

func ExampleToolName() {
	fmt.Println(mcp.ToolName("github", "create_issue"))
	fmt.Println(mcp.ToolName("my docs", "search.v2"))
	// Output:
	// mcp__github__create_issue
	// mcp__my_docs__search_v2
}

// A session connects its servers and registers their tools in its scope;
// Register keeps them in step with the servers until it is undone.
func ExampleConnect() {
	ctx := context.Background()
	reg := registry.New()
	scope := reg.NewScope("session-1", nil)
	defer scope.Close()

	servers := mcp.Connect(ctx, []mcp.Server{
		{Name: "docs", Command: "docs-mcp", Args: []string{"--stdio"}},
		{Name: "tracker", URL: "https://tracker.example/mcp", Headers: map[string]string{"Authorization": "Bearer …"}},
	}, mcp.Options{Report: func(server, message string) { log.Printf("MCP server %s: %s", server, message) }})
	defer servers.Close()

	unregister, err := servers.Register(reg, scope)
	if err != nil {
		log.Fatal(err)
	}
	defer unregister()
}
