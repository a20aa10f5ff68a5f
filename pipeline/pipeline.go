package pipeline

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
)

// Options configure a Pipeline.
type Options struct {
	// Approver answers asks; nil denies every ask.
	Approver Approver
	// Logger receives contained failures (observer panics, failed approval
	// requests); nil discards them.
	Logger *slog.Logger
	// NoTimeoutPolicy leaves out the built-in TimeoutPolicy wrapper.
	NoTimeoutPolicy bool
	// BodyGrace is how long a call still waits for its tool body once the
	// body's context is done, before it abandons the body and fails
	// (Execution.Dispatch says how); DefaultBodyGrace when zero, no wait
	// at all when negative.
	BodyGrace time.Duration
}

// Pipeline executes tool calls against a registry through its stages:
// materialize arguments → pre-execute → guards → execute wrappers → body →
// post-execute → finish (finalize, observers). It is safe for concurrent
// use.
type Pipeline struct {
	reg      *registry.Registry
	approver Approver
	logger   *slog.Logger
	grace    time.Duration

	mu    sync.RWMutex
	links chains
}

// chains are the middleware lists. They are replaced, never changed in
// place, so a copy is a consistent snapshot a running call keeps.
type chains struct {
	pre       []*scoped[PreExecute]
	wrappers  []*scoped[ExecuteWrapper]
	post      []*scoped[PostExecute]
	observers []*scoped[Observer]
}

// New returns a pipeline over reg. Unless opts.NoTimeoutPolicy is set, the
// TimeoutPolicy wrapper is installed first (outermost).
func New(reg *registry.Registry, opts Options) *Pipeline {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	grace := opts.BodyGrace
	switch {
	case grace == 0:
		grace = DefaultBodyGrace
	case grace < 0:
		grace = 0
	}
	p := &Pipeline{reg: reg, approver: opts.Approver, logger: logger, grace: grace}
	if !opts.NoTimeoutPolicy {
		p.links.wrappers = []*scoped[ExecuteWrapper]{{fn: TimeoutPolicy(reg), derives: true}}
	}
	return p
}

// Registry returns the registry the pipeline executes against.
func (p *Pipeline) Registry() *registry.Registry { return p.reg }

// UsePreExecute appends m to the pre-execute chain. With a scope, m sees
// only the calls made for exactly that scope. The disposer removes it.
func (p *Pipeline) UsePreExecute(scope *registry.Scope, m PreExecute) (dispose func()) {
	return use(p, &p.links.pre, scope, m)
}

// UseExecute appends w to the execute wrappers (the first added is the
// outermost). With a scope, w wraps only that scope's calls.
func (p *Pipeline) UseExecute(scope *registry.Scope, w ExecuteWrapper) (dispose func()) {
	return use(p, &p.links.wrappers, scope, w)
}

// UsePostExecute appends m to the post-execute chain.
func (p *Pipeline) UsePostExecute(scope *registry.Scope, m PostExecute) (dispose func()) {
	return use(p, &p.links.post, scope, m)
}

// Observe adds o to the result observers.
func (p *Pipeline) Observe(scope *registry.Scope, o Observer) (dispose func()) {
	return use(p, &p.links.observers, scope, o)
}

// use adds fn to list, copy-on-write so a running call keeps the snapshot
// it took.
func use[F any](p *Pipeline, list *[]*scoped[F], scope *registry.Scope, fn F) func() {
	entry := &scoped[F]{scope: scope, fn: fn}
	p.mu.Lock()
	*list = append(slices.Clip(*list), entry)
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			*list = slices.DeleteFunc(slices.Clone(*list), func(e *scoped[F]) bool { return e == entry })
		})
	}
}

// snapshot returns the current middleware lists.
func (p *Pipeline) snapshot() chains {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.links
}

// Execute runs one call through every stage on the caller's goroutine and
// returns its result. ctx is the caller's: cancelling it stops the call at
// the next stage boundary and, through the body's context, inside the
// tool. Execute returns only once the body has: a body that ignores its
// context holds Execute until it returns by itself, and the result is then
// the abandoned call's (see Execution.Dispatch). Callers that must not be
// held by such a body use Prepare, run Dispatch on a goroutine of their
// own, wait on Execution.Settled and call Finish.
func (p *Pipeline) Execute(ctx context.Context, in Input) Result {
	x := p.Prepare(ctx, in)
	x.Dispatch()
	return x.Finish()
}
