package bridge

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/mcp"
)

func TestMCPServersFromTheEditor(t *testing.T) {
	cases := []struct {
		name string
		json string
		want []mcp.Server
		err  string
	}{
		{"zed stdio", `[{"name":"fs","command":"/bin/fs-mcp","args":["--root","/w"],"env":[{"name":"TOKEN","value":"t"}]}]`,
			[]mcp.Server{{Name: "fs", Command: "/bin/fs-mcp", Args: []string{"--root", "/w"}, Env: map[string]string{"TOKEN": "t"}, Transport: mcp.TransportStdio}}, ""},
		{"http", `[{"type":"http","name":"web","url":"https://x/mcp","headers":[{"name":"Authorization","value":"Bearer k"}]}]`,
			[]mcp.Server{{Name: "web", URL: "https://x/mcp", Headers: map[string]string{"Authorization": "Bearer k"}, Transport: mcp.TransportHTTP}}, ""},
		{"sse", `[{"type":"sse","name":"old","url":"https://x/sse","headers":[]}]`,
			[]mcp.Server{{Name: "old", URL: "https://x/sse", Headers: map[string]string{}, Transport: mcp.TransportSSE}}, ""},
		{"none", `[]`, []mcp.Server{}, ""},
		{"acp", `[{"type":"acp","name":"inner","id":"1"}]`, nil, "not supported"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in []acpsdk.McpServer
			if err := json.Unmarshal([]byte(c.json), &in); err != nil {
				t.Fatal(err)
			}
			got, err := mcpServers(in)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("mcpServers = %#v, %v; want %#v", got, err, c.want)
			}
		})
	}
}
