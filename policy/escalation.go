package policy

import (
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/pipeline"
)

// WithSandbox tells the policy whether commands run in a kernel sandbox
// (sandbox.Status.Available); call it before the policy is used. Without
// one, a command that changes anything asks under every preset but
// full-access, even a write inside the workspace: only the parsed
// command line stands between the model and the machine. A policy never
// told trusts that commands are sandboxed.
func (p *Policy) WithSandbox(available bool) *Policy {
	p.noSandbox = !available
	return p
}

// escapes reports whether a command call asks to run outside the sandbox
// (`sandbox: false`).
func (a commandArgs) escapes() bool { return a.Sandbox != nil && !*a.Sandbox }

// decideEscalation judges a call asking to run outside the sandbox under
// a preset that has one: it asks, whatever the command, showing the
// command and why the model wants it, unless remembered rules for
// escalations answer. An "outside the sandbox" reject rule on any of its
// commands denies it; when such allow rules cover every one of its
// commands, the call is judged as an ordinary one allowed by those rules
// (writes outside the workspace still ask). Ordinary rules never lift the
// boundary.
func (p *Policy) decideEscalation(a commandArgs, preset Preset, rules []Rule) pipeline.Decision {
	if parsed, err := command.Parse(a.Command); err == nil {
		if r, ok := escapeRule(parsed, rules, false); ok {
			return pipeline.Deny(fmt.Sprintf("%s: the project's rule says to %s", commandTool, r))
		}
		if escapeCovered(parsed, rules) {
			var lifted []Rule
			for _, r := range rules {
				if r.Unsandboxed && r.Allow {
					r.Unsandboxed = false
					lifted = append(lifted, r)
				}
			}
			return p.decideCommand(a, preset, append(lifted, rules...))
		}
	}
	why := "the model gives no reason"
	if d := strings.TrimSpace(a.Description); d != "" {
		why = "the model says why: " + d
	}
	return pipeline.Ask(fmt.Sprintf("asks to run outside the sandbox (sandbox: false), and %s asks before every such command; %s",
		preset, why))
}

// escapeRule returns the first "outside the sandbox" rule answering allow
// (or reject) that matches one of c's commands.
func escapeRule(c *command.Command, rules []Rule, allow bool) (Rule, bool) {
	for _, r := range rules {
		if !r.Unsandboxed || r.Allow != allow || r.Tool != commandTool {
			continue
		}
		for _, s := range c.Simple {
			if command.Matches(s, r.Command) {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// escapeCovered reports whether "outside the sandbox" allow rules match
// every command of c; an opaque line is never covered.
func escapeCovered(c *command.Command, rules []Rule) bool {
	if len(c.Opaque) > 0 || len(c.Simple) == 0 {
		return false
	}
	for _, s := range c.Simple {
		covered := false
		for _, r := range rules {
			if r.Unsandboxed && r.Allow && r.Tool == commandTool && command.Matches(s, r.Command) {
				covered = true
				break
			}
		}
		if !covered {
			return false
		}
	}
	return true
}

// suggestEscape is Suggest for a call asking to run outside the sandbox:
// "always" remembers, outside the sandbox, the prefix of every command of
// the line; ok is false when they cannot be told.
func suggestEscape(c *command.Command) ([]Rule, bool) {
	var rules []Rule
	for _, prefix := range c.EscapePrefixes() {
		rules = append(rules, Rule{Allow: true, Tool: commandTool, Command: prefix, Unsandboxed: true})
	}
	return rules, len(rules) > 0
}
