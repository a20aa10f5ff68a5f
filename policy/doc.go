// Package policy decides which tool calls run at once, which need the
// user's approval, and which are refused, as a pre-execute middleware.
//
// A preset sets the baseline by what a tool does (its registry.Effect) and
// where (its paths against the workspace roots):
//
//	pol := policy.New(reg, ws, policy.WorkspaceWrite)
//	p.UsePreExecute(agentScope, pol.PreExecute)
//
// Under WorkspaceWrite, reads and writes inside the workspace run; a
// shell command runs when its parsed form (package command) only reads
// and writes inside the workspace or a remembered rule allows it, and
// asks otherwise; anything that touches a path outside the workspace
// asks. ReadOnly also asks before writes; FullAccess asks for nothing
// but what a reject rule could match. Plan runs what ReadOnly runs and
// refuses, without asking, every write, every command that is not
// read-only and every MCP tool, telling the model to present its plan
// with exit_plan_mode. A reject rule denies under every
// preset. The preset can be switched while the session runs.
//
// The paths checked are the ones each tool declares it touches (its
// registry Paths); one counts as inside only when it leads there once its
// symbolic links are followed, dangling links included, so a link to a
// file outside that does not exist yet asks. A path holding a NUL byte is
// denied under every preset.
package policy
