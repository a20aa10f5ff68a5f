package main

import (
	"slices"

	configfile "github.com/dsh-acp/dsh-acp/config"
	"github.com/dsh-acp/dsh-acp/lsp"
	"github.com/dsh-acp/dsh-acp/mcp"
)

// mcpServersOf are the config file's MCP servers, for every session.
func mcpServersOf(f *configfile.File) []mcp.Server {
	out := make([]mcp.Server, len(f.MCPServers))
	for i, s := range f.MCPServers {
		out[i] = mcp.Server{Name: s.Name, Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers, Transport: s.Transport}
	}
	return out
}

// languageServersOf are the built-in language servers with the config
// file's over them: one of the same name replaces a built-in, a new name
// adds one, disabled turns one off.
func languageServersOf(f *configfile.File) []lsp.ServerConfig {
	servers := lsp.Defaults()
	for _, s := range f.LanguageServers {
		i := slices.IndexFunc(servers, func(d lsp.ServerConfig) bool { return d.Name == s.Name })
		switch {
		case s.Disabled && i >= 0:
			servers = slices.Delete(servers, i, i+1)
		case s.Disabled:
		case i >= 0:
			servers[i] = lsp.ServerConfig{Name: s.Name, Command: s.Command, Extensions: s.Extensions, LanguageID: s.LanguageID, Env: s.Env}
		default:
			servers = append(servers, lsp.ServerConfig{Name: s.Name, Command: s.Command, Extensions: s.Extensions, LanguageID: s.LanguageID, Env: s.Env})
		}
	}
	return servers
}
