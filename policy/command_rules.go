package policy

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy/command"
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

// decideCommand judges a command line by what it runs, parsed: every
// simple command in it must be read-only or allowed by the project's
// rules, and anything it writes must lie inside the workspace (and the
// preset must let it write); a reject rule on any part of it denies it.
// Anything that cannot be judged asks.
func (p *Policy) decideCommand(a commandArgs, preset Preset, rules []Rule) pipeline.Decision {
	dir := p.ws.Cwd()
	if a.Workdir != "" {
		dir = p.ws.Resolve(a.Workdir)
	}
	env := command.Env{
		Inside: func(path string) bool {
			if !filepath.IsAbs(path) {
				path = filepath.Join(dir, path)
			}
			return p.ws.Contains(path)
		},
		Writes: preset == WorkspaceWrite && !p.noSandbox,
	}
	for _, r := range rules {
		if r.Tool == commandTool && len(r.Command) > 0 && !r.Unsandboxed {
			env.Rules = append(env.Rules, command.Rule{Allow: r.Allow, Prefix: r.Command})
		}
	}
	parsed, err := command.Parse(a.Command)
	if err != nil {
		return pipeline.Ask(fmt.Sprintf("%s: the command line cannot be parsed: %v", commandTool, err))
	}
	verdict, reason := parsed.Evaluate(env)
	if verdict == command.Allow {
		if outside, ok := readsOutside(parsed, env.Inside); ok {
			verdict, reason = command.Ask, outside
		}
	}
	switch verdict {
	case command.Allow:
		return pipeline.Allow()
	case command.Deny:
		return pipeline.Deny(fmt.Sprintf("%s: %s", commandTool, reason))
	default:
		return pipeline.Ask(fmt.Sprintf("%s: %s", commandTool, reason))
	}
}

// decideCommandCall is Decide for a command call: a reject rule denies
// it under every preset; full access runs it; otherwise a working
// directory outside the workspace asks, and the parsed command decides.
func (p *Policy) decideCommandCall(a commandArgs, preset Preset, rules []Rule, paths []string) pipeline.Decision {
	d := p.decideCommand(a, preset, rules)
	if d.Kind == pipeline.DecisionDeny {
		return d
	}
	if preset == FullAccess {
		return pipeline.Allow()
	}
	if a.escapes() {
		d = p.decideEscalation(a, preset, rules)
	}
	if d.Kind == pipeline.DecisionDeny {
		return d
	}
	for _, path := range paths {
		if path != "" && !p.ws.Contains(path) {
			return pipeline.Ask(fmt.Sprintf("%s runs in %s, outside the workspace", commandTool, p.where(path)))
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

// readsOutside finds an operand of a command line that names a path
// outside the workspace (absolute, or climbing out with ".."), or that
// starts from the home directory or the root through an expansion
// (~/.ssh/id_rsa, $HOME/.netrc): a read-only command still reads it, and
// reads outside the workspace ask, as the read tool's do. It says which,
// as the reason to ask.
func readsOutside(c *command.Command, inside func(string) bool) (string, bool) {
	for _, s := range c.Simple {
		for i := 1; i < len(s.Words); i++ {
			w := s.Words[i]
			if !s.Literal[i] {
				for _, from := range []string{"~", "$HOME", "${HOME", "/"} {
					if strings.HasPrefix(w, from) {
						return fmt.Sprintf("%s reads %s, which may lie outside the workspace", s.Program(), w), true
					}
				}
				continue
			}
			if strings.HasPrefix(w, "-") {
				_, value, ok := strings.Cut(w, "=")
				if !ok {
					continue
				}
				w = value
			}
			if (filepath.IsAbs(w) || w == ".." || strings.HasPrefix(w, "../") || strings.Contains(w, "/../")) && !inside(w) {
				return fmt.Sprintf("%s reads %s, outside the workspace", s.Program(), w), true
			}
		}
	}
	return "", false
}
