package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/pipeline"
)

// WithDialect tells the policy the language of the command lines the
// bash tool runs (the shell's Dialect); call it before the policy is
// used. A policy never told judges Bash. Bash lines are parsed and judged
// by what they run (decideCommand); PowerShell lines are not parsed
// (decidePowerShell).
func (p *Policy) WithDialect(d command.Dialect) *Policy {
	p.dialect = d
	return p
}

// decidePowerShell judges a PowerShell command line, which the policy
// cannot parse: only a line of plain words (command.PlainWords: a program
// and its arguments, no quoting, variables, pipelines, operators or
// separators) is matched against the rules, its program compared without
// case or ".exe". A reject rule matching it denies it; a line that is not
// plain asks when there are reject rules, under full access too, for it
// may run a rejected program. Full access runs everything else; otherwise
// the line runs without asking only when an allow rule matches it.
func (p *Policy) decidePowerShell(a commandArgs, preset Preset, rules []Rule) pipeline.Decision {
	words, plain := command.PlainWords(a.Command)
	allowed := false
	for _, r := range rules {
		if r.Tool != commandTool || len(r.Command) == 0 || r.Unsandboxed {
			continue
		}
		matches := plain && powerShellMatch(r.Command, words)
		switch {
		case !r.Allow && matches:
			return pipeline.Deny(fmt.Sprintf("%s: %s is rejected by a rule", commandTool, r.Subject()))
		case !r.Allow && !plain:
			return pipeline.Ask(fmt.Sprintf("%s: a PowerShell line that is more than a program and plain arguments may run a program a rule rejects", commandTool))
		case r.Allow && matches:
			allowed = true
		}
	}
	if preset == FullAccess || allowed {
		return pipeline.Allow()
	}
	return pipeline.Ask(fmt.Sprintf("%s: PowerShell command lines are not parsed, so each one asks unless a remembered rule allows its program", commandTool))
}

// powerShellMatch reports whether the plain words start with prefix,
// the program compared without case or ".exe".
func powerShellMatch(prefix, words []string) bool {
	if len(words) < len(prefix) {
		return false
	}
	program := strings.TrimSuffix(strings.ToLower(prefix[0]), ".exe")
	return program == words[0] && slices.Equal(prefix[1:], words[1:len(prefix)])
}

// suggestPowerShell is what "always" remembers for a PowerShell line: its
// program, and its first argument when that is a bare word (a sub-command
// such as `go test`); nothing for a line that is not plain words.
func suggestPowerShell(line string) ([]Rule, bool) {
	words, plain := command.PlainWords(line)
	if !plain {
		return nil, false
	}
	prefix := words[:1]
	if len(words) > 1 && isBareWord(words[1]) {
		prefix = words[:2]
	}
	return []Rule{{Allow: true, Tool: commandTool, Command: slices.Clone(prefix)}}, true
}

// isBareWord reports whether w is letters, digits, - and _ only and does
// not start with -: a sub-command, not an option or a path.
func isBareWord(w string) bool {
	if w == "" || w[0] == '-' {
		return false
	}
	return strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) < 0
}
