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
