package policy

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
)

// commandTool is the tool whose calls run a shell command line.
const commandTool = "bash"

// commandArgs are the arguments of a command call the policy reads.
type commandArgs struct {
	Command     string `json:"command"`
	Workdir     string `json:"workdir"`
	Description string `json:"description"`
	Sandbox     *bool  `json:"sandbox"` // false: run outside the sandbox (escalation.go)
}

// commandOf returns the command line a call runs; ok is false for a call
// that runs none.
func commandOf(call *registry.Call) (commandArgs, bool) {
	if call.Name() != commandTool {
		return commandArgs{}, false
	}
	var a commandArgs
	if err := call.Arguments().Decode(&a); err != nil || a.Command == "" {
		return commandArgs{}, false
	}
	return a, true
}

// decideCommand judges a command line by what it runs, parsed (a
// PowerShell line is not: decidePowerShell): every
// simple command in it must be read-only or allowed by the project's
// rules, anything it writes must lie inside the workspace (and the
// preset must let it write), and anything it reads too; a reject rule on
// any part of it denies it. Anything that cannot be judged asks.
func (p *Policy) decideCommand(a commandArgs, preset Preset, rules []Rule) pipeline.Decision {
	if p.dialect == command.PowerShell {
		return p.decidePowerShell(a, preset, rules)
	}
	dir := p.ws.Cwd()
	if a.Workdir != "" {
		dir = p.ws.Resolve(a.Workdir)
	}
	// Joined, never cleaned: the workspace takes a ".." after a link
	// where the kernel does.
	from := func(path string) string {
		if filepath.IsAbs(path) {
			return path
		}
		return dir + string(filepath.Separator) + path
	}
	env := command.Env{
		Inside:       func(path string) bool { return p.ws.Contains(from(path)) },
		Target:       func(path string) (string, bool) { return p.ws.Target(from(path)) },
		Glob:         func(pattern string) ([]string, error) { return filepath.Glob(from(pattern)) },
		Writes:       preset == WorkspaceWrite && !p.noSandbox,
		Unrestricted: preset == FullAccess,
	}
	for _, r := range rules {
		if r.Tool == commandTool && len(r.Command) > 0 && !r.Unsandboxed {
			env.Rules = append(env.Rules, command.Rule{Allow: r.Allow, Prefix: r.Command})
		}
	}
	parsed, err := command.Parse(a.Command)
	if err != nil {
		if preset == FullAccess && !slices.ContainsFunc(env.Rules, func(r command.Rule) bool { return !r.Allow }) {
			return pipeline.Allow()
		}
		return pipeline.Ask(fmt.Sprintf("the command line cannot be parsed: %v", err))
	}
	verdict, reason := parsed.Evaluate(env)
	switch verdict {
	case command.Allow:
		return pipeline.Allow()
	case command.Deny:
		return pipeline.Deny(fmt.Sprintf("%s: %s", commandTool, reason))
	default:
		return pipeline.Ask(reason)
	}
}

// decideCommandCall is Decide for a command call: a reject rule denies
// it under every preset; full access runs it unless it may run a
// rejected program the parse cannot name; otherwise a working directory
// outside the workspace asks, and the parsed command decides.
func (p *Policy) decideCommandCall(a commandArgs, preset Preset, rules []Rule, paths []string) pipeline.Decision {
	d := p.decideCommand(a, preset, rules)
	if d.Kind == pipeline.DecisionDeny || preset == FullAccess {
		return d
	}
	if a.escapes() {
		d = p.decideEscalation(a, preset, rules)
	}
	if d.Kind == pipeline.DecisionDeny {
		return d
	}
	for _, path := range paths {
		if path != "" && !p.ws.Contains(path) {
			return pipeline.Ask(fmt.Sprintf("runs in %s, outside the workspace", p.where(path)))
		}
	}
	return d
}

// suggestCommand is Suggest for a command: "always" remembers the
// prefix of every simple command of the line that is not read-only
// (program and leading sub-command words); handled is false for a call
// that runs none, ok false for a command line whose prefixes cannot be
// told (a program named by an expansion, an eval) or that needs none.
func (p *Policy) suggestCommand(call *registry.Call) (rules []Rule, ok, handled bool) {
	a, isCommand := commandOf(call)
	if !isCommand {
		return nil, false, false
	}
	if p.dialect == command.PowerShell {
		rules, ok = suggestPowerShell(a.Command)
		return rules, ok, true
	}
	parsed, err := command.Parse(a.Command)
	if err != nil {
		return nil, false, true
	}
	if a.escapes() && p.Preset() != FullAccess {
		rules, ok = suggestEscape(parsed)
		return rules, ok, true
	}
	for _, prefix := range parsed.Prefixes() {
		rules = append(rules, Rule{Allow: true, Tool: commandTool, Command: prefix})
	}
	return rules, len(rules) > 0, true
}
