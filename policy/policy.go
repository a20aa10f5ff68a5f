package policy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// Policy is one session's permission policy. It is safe for concurrent use.
type Policy struct {
	reg *registry.Registry
	ws  *workspace.Workspace

	rules *RuleBook // nil: nothing is remembered
	// noSandbox is set when commands run without a kernel sandbox
	// (WithSandbox).
	noSandbox bool
	// dialect is the language of command lines (WithDialect).
	dialect command.Dialect

	// report is told of a problem found at run time (WithReport).
	report func(string)

	mu     sync.RWMutex
	preset Preset
	// reported is the rule file's problem last told, so each is told once.
	reported string
}

// WithRules makes the policy honour, and remember, the project's rules;
// call it before the policy is used.
func (p *Policy) WithRules(b *RuleBook) *Policy {
	p.rules = b
	return p
}

// WithReport has report told, once each, of a problem the policy finds
// while it runs (the project's rule file became unreadable); call it
// before the policy is used.
func (p *Policy) WithReport(report func(string)) *Policy {
	p.report = report
	return p
}

// RuleBook returns the project's rules, or nil when nothing is
// remembered.
func (p *Policy) RuleBook() *RuleBook { return p.rules }

// New returns the policy for a session whose files are ws, starting with
// preset.
func New(reg *registry.Registry, ws *workspace.Workspace, preset Preset) *Policy {
	return &Policy{reg: reg, ws: ws, preset: preset}
}

// Preset returns the preset in force.
func (p *Policy) Preset() Preset {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.preset
}

// SetPreset switches the preset; calls prepared afterwards follow it.
func (p *Policy) SetPreset(preset Preset) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.preset = preset
}

// PreExecute is the policy as a pre-execute middleware: it answers for the
// calls it has a verdict on and passes the rest down the chain.
func (p *Policy) PreExecute(ctx context.Context, call *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
	d := p.Decide(call)
	if d.Kind != pipeline.DecisionAllow {
		return d, nil
	}
	return next(ctx)
}

// Decide returns the preset's verdict on call. A deny's reason names the
// tool, for the model; an ask's is a clause about the call, for the user
// who reads it after the call's title ("writes /etc/x, outside the
// workspace"). Unknown tools and arguments
// that do not fit the tool are allowed here: the pipeline refuses them
// before anything runs. A path no file can have (a NUL byte in it) is
// denied under every preset, before anything touches the disk. A path
// counts as inside the workspace only when it leads there once its
// symbolic links are followed, dangling ones included. While the
// project's rule file cannot be read, a call the rest would allow asks: a
// rule there may forbid it.
func (p *Policy) Decide(call *registry.Call) pipeline.Decision {
	return p.decideUnder(call, p.Preset())
}

// PreExecuteAtMost is PreExecute under the preset in force or limit,
// whichever allows less (Preset.AtMost): the policy of a child agent,
// which never has more rights than its parent, nor than its type grants.
// The project's rules apply as they do to the parent.
func (p *Policy) PreExecuteAtMost(limit Preset) pipeline.PreExecute {
	return func(ctx context.Context, call *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
		d := p.decideUnder(call, p.Preset().AtMost(limit))
		if d.Kind != pipeline.DecisionAllow {
			return d, nil
		}
		return next(ctx)
	}
}

// decideUnder is Decide under preset. While the project's rule file
// cannot be read, a call the rest would allow asks.
func (p *Policy) decideUnder(call *registry.Call, preset Preset) pipeline.Decision {
	rules, err := p.currentRules()
	d := p.decide(call, preset, rules)
	if err != nil && d.Kind == pipeline.DecisionAllow {
		return pipeline.Ask("asks because the project's remembered rules cannot be read, and one may forbid it")
	}
	return d
}

// decide is Decide under preset and rules.
func (p *Policy) decide(call *registry.Call, preset Preset, rules []Rule) pipeline.Decision {
	bound, tool := p.bind(call)
	if tool == nil {
		return pipeline.Allow()
	}
	paths, ok := bound.Paths()
	if !ok {
		return pipeline.Allow()
	}
	for _, path := range paths {
		if err := workspace.ValidatePath(path); err != nil {
			return pipeline.Deny(fmt.Sprintf("%s: %v", call.Name(), err))
		}
	}
	targets := p.targets(paths)
	if r, ok := p.fileRule(rules, call.Name(), targets, false); ok {
		return pipeline.Deny(fmt.Sprintf("%s: the project's rule says to %s", call.Name(), r))
	}
	if len(targets) == 0 && tool.Effect() == registry.EffectExternal && p.toolRule(rules, call.Name(), false) {
		return pipeline.Deny(fmt.Sprintf("%s: the project's rule says to reject it", call.Name()))
	}
	if a, ok := commandOf(call); ok {
		if preset == Plan {
			return p.decidePlanCommand(a, rules, paths)
		}
		return p.decideCommandCall(a, preset, rules, paths)
	}
	switch {
	case preset == FullAccess:
		return pipeline.Allow()
	case preset == Plan && refusedInPlan(tool.Effect()):
		return planRefusal(call.Name(), refusedWhat(tool.Effect()))
	}
	for _, path := range paths {
		if path != "" && !p.ws.Contains(path) {
			if _, ok := p.fileRule(rules, call.Name(), targets, true); ok {
				return pipeline.Allow()
			}
			return pipeline.Ask(fmt.Sprintf("%s %s, outside the workspace", touches(tool.Effect()), p.where(path)))
		}
	}
	switch tool.Effect() {
	case registry.EffectExecute:
		return pipeline.Ask(fmt.Sprintf("runs a command, and %s asks before every command", preset))
	case registry.EffectExternal:
		if len(targets) == 0 && p.toolRule(rules, call.Name(), true) {
			return pipeline.Allow()
		}
		return pipeline.Ask(fmt.Sprintf("is a tool another program serves (an MCP server), and %s asks before every call to one", preset))
	case registry.EffectWrite:
		for _, t := range targets {
			if command.InGitDir(t) {
				return pipeline.Ask(fmt.Sprintf("writes %s, inside a .git directory or one laid out like a repository (git runs what its config names)", t))
			}
		}
		if preset == ReadOnly {
			if _, ok := p.fileRule(rules, call.Name(), targets, true); ok {
				return pipeline.Allow()
			}
			return pipeline.Ask(fmt.Sprintf("changes files, and %s asks before every change", preset))
		}
	}
	return pipeline.Allow()
}

// touches is the verb of an ask about a path a tool with effect reaches:
// "reads", "writes", or "touches" when the effect says neither.
func touches(effect registry.Effect) string {
	switch effect {
	case registry.EffectRead:
		return "reads"
	case registry.EffectWrite:
		return "writes"
	default:
		return "touches"
	}
}

// currentRules returns the project's rules, or why they cannot be read;
// each new reason is reported once (WithReport).
func (p *Policy) currentRules() ([]Rule, error) {
	if p.rules == nil {
		return nil, nil
	}
	rules, err := p.rules.Rules()
	if err == nil {
		p.reportOnce("")
	} else {
		p.reportOnce("The remembered rules of this project cannot be read, so every call asks until the file is fixed or removed: " + err.Error())
	}
	return rules, err
}

// reportOnce tells report text unless it was the last problem told; ""
// says the problem is gone, so that it is told again if it comes back.
func (p *Policy) reportOnce(text string) {
	p.mu.RLock()
	told := p.reported == text
	p.mu.RUnlock()
	if told {
		return
	}
	p.mu.Lock()
	told = p.reported == text
	p.reported = text
	p.mu.Unlock()
	if !told && text != "" && p.report != nil {
		p.report(text)
	}
}

// targets are the absolute paths a call touches, links followed.
func (p *Policy) targets(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, path := range paths {
		if path == "" {
			continue
		}
		target, ok := p.ws.Target(path)
		if !ok {
			target = p.ws.Resolve(path)
		}
		out = append(out, target)
	}
	return out
}

// fileRule returns the first rule answering allow (or reject) that
// covers a call of tool touching targets.
func (p *Policy) fileRule(rules []Rule, tool string, targets []string, allow bool) (Rule, bool) {
	for _, r := range rules {
		if r.Allow == allow && r.Tool == tool && r.coversPaths(targets, p.ws.Contains) {
			return r, true
		}
	}
	return Rule{}, false
}

// where names path for the user: absolute, and with where its symbolic
// links lead when that is somewhere else.
func (p *Policy) where(path string) string {
	abs := p.ws.Resolve(path)
	target, ok := p.ws.Target(path)
	switch {
	case !ok:
		return abs + " (its symbolic links loop)"
	case target != abs:
		return abs + " (a link to " + target + ")"
	default:
		return abs
	}
}

// Suggest returns the rules an "always" answer to call would remember
// (allowing; flip Allow for a rejection): for a command, the prefix of
// each of its commands that is not read-only; for a file tool, the tool in
// this project when every path is inside the workspace, else the tool
// under the directory holding the paths outside it. ok is false when no
// rule fits the call.
func (p *Policy) Suggest(call *registry.Call) ([]Rule, bool) {
	if p.rules == nil {
		return nil, false
	}
	if rules, ok, handled := p.suggestCommand(call); handled {
		return rules, ok
	}
	bound, tool := p.bind(call)
	paths, ok := bound.Paths()
	if ok && len(paths) == 0 && tool != nil && tool.Effect() == registry.EffectExternal {
		return []Rule{{Allow: true, Tool: call.Name()}}, true // the tool, whatever it is asked
	}
	if !ok || len(paths) == 0 {
		return nil, false
	}
	var outside []string
	for _, t := range p.targets(paths) {
		if !p.ws.Contains(t) {
			outside = append(outside, t)
		}
	}
	r := Rule{Allow: true, Tool: call.Name()}
	if len(outside) > 0 {
		r.Path = commonDir(outside)
	}
	return []Rule{r}, true
}

// Remember keeps rule for the project.
func (p *Policy) Remember(rule Rule) error {
	if p.rules == nil {
		return errors.New("this session remembers no rules")
	}
	return p.rules.Add(rule)
}

// commonDir is the deepest directory holding every path: a directory
// itself, or a file's parent.
func commonDir(paths []string) string {
	dirOf := func(p string) string {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			return p
		}
		return filepath.Dir(p)
	}
	dir := dirOf(paths[0])
	for _, p := range paths[1:] {
		for !workspace.Under(dir, p) {
			dir = filepath.Dir(dir)
		}
	}
	return dir
}

// bind returns the call's arguments bound to its tool, binding them here
// for a call made outside the pipeline; the tool is nil when unknown.
func (p *Policy) bind(call *registry.Call) (registry.Bound, *registry.Tool) {
	bound := call.Bound()
	if tool := bound.Tool(); tool != nil {
		return bound, tool
	}
	tool := p.reg.Get(call.Name(), call.Scope())
	if tool == nil {
		return bound, nil
	}
	bound, _ = tool.Bind(call.Arguments())
	return bound, tool
}

// List returns the project's remembered rules.
func (p *Policy) List() ([]Rule, error) {
	if p.rules == nil {
		return nil, nil
	}
	return p.rules.Rules()
}

// Forget removes the rule at index i of List.
func (p *Policy) Forget(i int) (Rule, error) {
	if p.rules == nil {
		return Rule{}, errors.New("this session remembers no rules")
	}
	return p.rules.Remove(i)
}

// toolRule reports whether a rule answering allow (or reject) covers every
// call of a tool that touches no path.
func (p *Policy) toolRule(rules []Rule, tool string, allow bool) bool {
	for _, r := range rules {
		if r.Allow == allow && r.Tool == tool && r.Path == "" && len(r.Command) == 0 {
			return true
		}
	}
	return false
}
