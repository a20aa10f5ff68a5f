package policy

import (
	"context"
	"fmt"
	"sync"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/workspace"
)

// Policy is one session's permission policy. It is safe for concurrent use.
type Policy struct {
	reg *registry.Registry
	ws  *workspace.Workspace

	mu     sync.RWMutex
	preset Preset
}

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

// Decide returns the preset's verdict on call. Unknown tools and arguments
// that do not fit the tool are allowed here: the pipeline refuses them
// before anything runs. A path no file can have (a NUL byte in it) is
// denied under every preset, before anything touches the disk. A path
// counts as inside the workspace only when it leads there once its
// symbolic links are followed, dangling ones included.
func (p *Policy) Decide(call *registry.Call) pipeline.Decision {
	bound := call.Bound()
	tool := bound.Tool()
	if tool == nil {
		// A call made outside the pipeline: bind it here.
		if tool = p.reg.Get(call.Name(), call.Scope()); tool == nil {
			return pipeline.Allow()
		}
		bound, _ = tool.Bind(call.Arguments())
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
	preset := p.Preset()
	if preset == FullAccess {
		return pipeline.Allow()
	}
	for _, path := range paths {
		if path != "" && !p.ws.Contains(path) {
			return pipeline.Ask(fmt.Sprintf("%s touches %s, outside the workspace", call.Name(), p.where(path)))
		}
	}
	switch tool.Effect() {
	case registry.EffectExecute:
		return pipeline.Ask(fmt.Sprintf("%s runs a command; %s asks before every command", call.Name(), preset))
	case registry.EffectWrite:
		if preset == ReadOnly {
			return pipeline.Ask(fmt.Sprintf("%s changes files; %s asks before every change", call.Name(), preset))
		}
	}
	return pipeline.Allow()
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
