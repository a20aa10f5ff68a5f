// Package mcp connects a session to the editor's MCP servers and offers
// their tools as raw registry tools, so the model calls them through the
// same pipeline, approvals and cards as the built-in tools.
//
// A session connects once, registers the tools in its scope (Register
// keeps them in step when a server's list changes or a server stops), and
// closes the servers with the session:
//
//	servers := mcp.Connect(ctx, configs, mcp.Options{
//		Report: func(server, message string) { notify(server + ": " + message) },
//	})
//	defer servers.Close()
//	unregister, err := servers.Register(reg, scope)
//	if err != nil { … }
//	defer unregister()
//
// Tools and OnToolsChanged are the parts Register is built from, for a
// caller that registers tools its own way.
//
// A server that fails to start, or stops later, is reported through
// Options.Report with its stderr tail and left out; the other servers keep
// working. Each tool is named mcp__<server>__<tool> (see ToolName), asks
// for approval under every preset but full access, and renders the
// server's text, image and resource content as the call's result.
//
// A stdio server runs in a process group of its own, with the agent's
// environment minus its secrets (secrets.ServerEnviron: the model keys
// never, other secret-looking names only through Options.EnvAllow) and the
// Env its configuration names on top. Close, and a server's own exit, stop
// the whole group: SIGTERM, then SIGKILL after a grace, so the processes a
// server started die with it.
package mcp
