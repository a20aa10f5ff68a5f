package policy

import (
	"fmt"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
)

// PlanExitTool is the tool the model presents its plan with, which asks
// the user to leave plan mode; the refusals of plan mode name it.
const PlanExitTool = "exit_plan_mode"

// refusedInPlan reports whether plan mode refuses every call of a tool
// with effect: anything that may change files or run programs, an MCP
// server's tools included (what they do cannot be told).
func refusedInPlan(effect registry.Effect) bool {
	switch effect {
	case registry.EffectWrite, registry.EffectExecute, registry.EffectExternal:
		return true
	default:
		return false
	}
}

// refusedWhat names what plan mode refuses of a tool with effect.
func refusedWhat(effect registry.Effect) string {
	switch effect {
	case registry.EffectWrite:
		return "changes to files"
	case registry.EffectExternal:
		return "tools another program serves (an MCP server), whose effects cannot be told"
	default:
		return "tools that run programs"
	}
}

// planRefusal is the deny of a call plan mode does not run: it says why,
// and what the model should do instead.
func planRefusal(tool, what string) pipeline.Decision {
	return pipeline.Deny(fmt.Sprintf("%s: the session is in plan mode, which refuses %s: only reads and read-only commands run. "+
		"Do not try another way to make the change: finish working out the plan, then present it with %s, "+
		"which asks the user to approve it and switch to a mode that makes changes.", tool, what, PlanExitTool))
}

// decidePlanCommand is Decide for a command call in plan mode: a line
// that only reads runs as under read-only (asking when it reads outside
// the workspace or runs from outside it); a reject rule denies as ever;
// anything else — a line that writes, runs a program not on the
// read-only list or cannot be judged, and any call asking to leave the
// sandbox — is refused. Allow rules do not apply: they say what may
// change things, which plan mode does not.
func (p *Policy) decidePlanCommand(a commandArgs, rules []Rule, paths []string) pipeline.Decision {
	if a.escapes() {
		return planRefusal(commandTool, "commands outside the sandbox")
	}
	var rejects []Rule
	for _, r := range rules {
		if !r.Allow {
			rejects = append(rejects, r)
		}
	}
	d := p.decideCommand(a, Plan, rejects)
	switch {
	case d.Kind == pipeline.DecisionDeny:
		return d
	case d.Kind == pipeline.DecisionAsk && !p.readsOnly(a.Command):
		return planRefusal(commandTool, "commands that are not read-only ("+d.Reason+")")
	}
	for _, path := range paths {
		if path != "" && !p.ws.Contains(path) {
			return pipeline.Ask(fmt.Sprintf("runs in %s, outside the workspace", p.where(path)))
		}
	}
	return d
}

// readsOnly reports whether a command line only reads: it parses,
// nothing in it is opaque, every command it runs is on the read-only
// list, and it writes no file. A PowerShell line is never judged so.
func (p *Policy) readsOnly(line string) bool {
	if p.dialect == command.PowerShell {
		return false
	}
	c, err := command.Parse(line)
	if err != nil || len(c.Opaque) > 0 || len(c.Writes) > 0 {
		return false
	}
	for _, s := range c.Simple {
		if ok, _ := command.ReadOnly(s); !ok {
			return false
		}
	}
	return true
}
