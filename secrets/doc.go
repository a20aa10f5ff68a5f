// Package secrets owns what counts as a secret in dsh-acp, by name and by
// value, so every way out of the process applies one rule.
//
// By name: the environment of every program dsh-acp starts (shell
// commands, MCP servers, language servers) is the agent's own minus the
// variables the rule withholds (see Withheld). The agent's model keys
// never pass; other secret-looking names pass only when an allow pattern
// lets them through; what a server's configuration names explicitly is
// added on top.
//
//	cmd.Env = secrets.Environ(os.Environ(), allow)                  // a command
//	cmd.Env = secrets.ServerEnviron(os.Environ(), allow, cfg.Env)  // a server
//
// By value: a Redactor replaces the known keys and the values of the
// secret-looking variables the process holds (see EnvValues) with Marker
// in what goes to the editor, the model and the disk.
//
//	red := secrets.NewRedactor(append(apiKeys, secrets.EnvValues(os.Environ())...)...)
//	fmt.Println(red.String("key=" + apiKey)) // key=[REDACTED]
//	line, err := red.JSON(frame)            // a JSON text, still valid, order kept
//
// The package imports nothing of dsh-acp's, so tools/shell, mcp, lsp,
// acp, agent and session may all use it.
package secrets
