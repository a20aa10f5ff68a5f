package config

import (
	"fmt"
	"net/url"
	"strings"
)

// MCPServer is an MCP server every session uses ([mcp_servers.<name>]):
// a command to start (stdio), or a URL to reach (streamable HTTP or SSE).
type MCPServer struct {
	Name string
	// Command, Args and Env start a stdio server. Env is set on top of
	// the agent's environment without secrets (the model keys never pass,
	// other secret-looking names only through DSH_SHELL_ENV_ALLOW).
	Command string
	Args    []string
	Env     map[string]string
	// URL and Headers reach a remote one; Transport is "http" (the
	// default for a URL) or "sse".
	URL       string
	Headers   map[string]string
	Transport string
}

// LanguageServer is a language server of the config file
// ([language_servers.<name>]): it replaces the built-in of the same name
// (gopls, typescript-language-server, pyright, rust-analyzer, clangd), or
// adds one; Disabled turns a built-in off.
type LanguageServer struct {
	Name string
	// Command is the program and its arguments.
	Command []string
	// Extensions are the file name extensions it serves (".go").
	Extensions []string
	// LanguageID is the LSP language id of its files ("go").
	LanguageID string
	// Env is set in its environment, on top of the agent's without
	// secrets (the model keys never pass, other secret-looking names only
	// through DSH_SHELL_ENV_ALLOW).
	Env      map[string]string
	Disabled bool
}

type rawMCPServer struct {
	Command   *string           `toml:"command"`
	Args      []string          `toml:"args"`
	Env       map[string]string `toml:"env"`
	URL       *string           `toml:"url"`
	Headers   map[string]string `toml:"headers"`
	Transport *string           `toml:"transport"`
}

type rawLanguageServer struct {
	Command    []string          `toml:"command"`
	Extensions []string          `toml:"extensions"`
	LanguageID *string           `toml:"language_id"`
	Env        map[string]string `toml:"env"`
	Disabled   *bool             `toml:"disabled"`
}

// mcpServer checks one [mcp_servers.<name>] table.
func (b *builder) mcpServer(name string, raw rawMCPServer) MCPServer {
	at := func(key ...string) []string { return append([]string{"mcp_servers", name}, key...) }
	s := MCPServer{Name: name, Args: raw.Args, Env: raw.Env, Headers: raw.Headers}
	b.envNames(at("env"), raw.Env)
	switch {
	case raw.Command != nil && raw.URL != nil:
		b.fail(at(), "give command (a stdio server) or url (a remote one), not both")
	case raw.Command != nil:
		if strings.TrimSpace(*raw.Command) == "" {
			b.fail(at("command"), "an empty command")
		}
		s.Command, s.Transport = *raw.Command, "stdio"
		if raw.Headers != nil || raw.Transport != nil {
			b.fail(at(), "headers and transport are for a url, not a command")
		}
	case raw.URL != nil:
		u, err := url.Parse(*raw.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			b.fail(at("url"), "%q is not an http(s) URL", *raw.URL)
		}
		s.URL, s.Transport = *raw.URL, "http"
		if raw.Transport != nil {
			switch *raw.Transport {
			case "http", "sse":
				s.Transport = *raw.Transport
			default:
				b.fail(at("transport"), "unknown transport %q (want http or sse)", *raw.Transport)
			}
		}
		if raw.Args != nil || raw.Env != nil {
			b.fail(at(), "args and env are for a command, not a url")
		}
	default:
		b.fail(at(), "give command (a stdio server) or url (a remote one)")
	}
	return s
}

// languageServer checks one [language_servers.<name>] table.
func (b *builder) languageServer(name string, raw rawLanguageServer) LanguageServer {
	at := func(key ...string) []string { return append([]string{"language_servers", name}, key...) }
	s := LanguageServer{Name: name, Command: raw.Command, Extensions: raw.Extensions, Env: raw.Env}
	b.envNames(at("env"), raw.Env)
	if raw.Disabled != nil {
		s.Disabled = *raw.Disabled
	}
	if raw.LanguageID != nil {
		s.LanguageID = *raw.LanguageID
	}
	if s.Disabled {
		return s
	}
	if len(s.Command) == 0 || strings.TrimSpace(s.Command[0]) == "" {
		b.fail(at("command"), "a language server needs a command: the program and its arguments, such as [\"gopls\"]")
	}
	if len(s.Extensions) == 0 {
		b.fail(at("extensions"), "say which files it serves, such as [\".go\"]")
	}
	for _, e := range s.Extensions {
		if !strings.HasPrefix(e, ".") || len(e) < 2 {
			b.fail(at("extensions"), "%q is not a file name extension (like \".go\")", e)
		}
	}
	if s.LanguageID == "" && len(s.Extensions) > 0 {
		s.LanguageID = strings.TrimPrefix(s.Extensions[0], ".")
	}
	return s
}

// envNames checks the variable names of a server's env table: each must
// be a name a process environment can hold.
func (b *builder) envNames(at []string, env map[string]string) {
	for name := range env {
		if name == "" || strings.ContainsAny(name, "=\x00") {
			b.fail(append(at, name), "%q cannot be an environment variable name", name)
		}
	}
}

// String names the server for messages.
func (s MCPServer) String() string {
	if s.URL != "" {
		return fmt.Sprintf("%s (%s %s)", s.Name, s.Transport, s.URL)
	}
	return fmt.Sprintf("%s (%s)", s.Name, s.Command)
}
