package main

import (
	"slices"
	"testing"

	configfile "github.com/dsh-acp/dsh-acp/config"
	"github.com/dsh-acp/dsh-acp/lsp"
)

func TestLanguageServersOfTheConfig(t *testing.T) {
	f, err := configfile.Parse("c.toml", []byte(`
[language_servers.gopls]
command = ["gopls", "-remote=auto"]
extensions = [".go"]
[language_servers.clangd]
disabled = true
[language_servers.zls]
command = ["zls"]
extensions = [".zig"]
`))
	if err != nil {
		t.Fatal(err)
	}
	got := languageServersOf(f)
	names := func(s []lsp.ServerConfig) []string {
		var out []string
		for _, c := range s {
			out = append(out, c.Name)
		}
		return out
	}
	var want []string
	for _, d := range lsp.Defaults() {
		if d.Name != "clangd" {
			want = append(want, d.Name)
		}
	}
	want = append(want, "zls")
	if !slices.Equal(names(got), want) {
		t.Errorf("servers = %v, want %v", names(got), want)
	}
	for _, s := range got {
		if s.Name == "gopls" && !slices.Equal(s.Command, []string{"gopls", "-remote=auto"}) {
			t.Errorf("gopls = %v, want the config's command", s.Command)
		}
	}
	if servers := mcpServersOf(f); len(servers) != 0 {
		t.Errorf("MCP servers = %v", servers)
	}
}

// TestConfigSecretsAreHeld: what the config file gives its servers as
// credentials is redacted like the environment's secrets; what is not a
// credential is not.
func TestConfigSecretsAreHeld(t *testing.T) {
	f, err := configfile.Parse("c.toml", []byte(`
[mcp_servers.docs]
command = "docs-mcp"
env = { DOCS_TOKEN = "docs-token-0123456789", DOCS_REGION = "eu-west-region-1" }
[mcp_servers.web]
url = "https://mcp.example.com"
headers = { Authorization = "Bearer web-bearer-0123456789", X-Trace = "trace-header-value" }
[language_servers.zls]
command = ["zls"]
extensions = [".zig"]
env = { ZLS_API_KEY = "zls-key-0123456789", ZLS_CACHE = "/tmp/zls" }
`))
	if err != nil {
		t.Fatal(err)
	}
	got := configSecrets(f)
	slices.Sort(got)
	want := []string{"Bearer web-bearer-0123456789", "docs-token-0123456789", "web-bearer-0123456789", "zls-key-0123456789"}
	if !slices.Equal(got, want) {
		t.Errorf("configSecrets = %q, want %q", got, want)
	}
}
