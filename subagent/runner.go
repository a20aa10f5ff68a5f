package subagent

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// Defaults for Options.
const (
	DefaultMaxParallel = 4
	DefaultMaxSteps    = 32
	DefaultMaxDepth    = 1
)

// Options configure a Runner: what its children share with their parent
// agent, and their bounds.
type Options struct {
	// Pipeline runs the children's calls: the parent's own, so they pass
	// the same stages and ask through the same approver. Required.
	Pipeline *pipeline.Pipeline
	// Scope is the parent agent's scope; each child's is below it.
	// Required.
	Scope *registry.Scope
	// Log is the parent's log: each child's start, every event of its own
	// log and its end are recorded there (session.SubagentStarted,
	// SubagentEvent, SubagentEnded). Required.
	Log *session.Log
	// Agent is what every child shares with its parent: Provider and
	// Model (unless its type names another model), Cwd, Roots, Platform,
	// Instructions, Sandbox, Redactor, Logger, MaxTokens, CompactAt, Now.
	// Its Pipeline, Scope, Log, Parent, ClientPrompt and
	// MaxRequestsPerTurn are each child's own.
	Agent agent.Options
	// Models, when set, serves the model a type names: its provider and
	// what it is; a type naming a model fails its tasks without it.
	Models func(name string) (llm.Provider, func() agent.ModelInfo, error)
	// Policy returns the permission policy of a child of type t, as a
	// pre-execute middleware: the parent's, bounded (a child never has
	// more rights than its parent; a read-only type's at most
	// read-only). Required.
	Policy func(t Type) pipeline.PreExecute
	// Tools, when set, returns the tools a child of type t has of its
	// own, bound to its log (its own plan, say; a read-only child's own
	// bash, sandboxed read-only): they shadow the parent's of the same
	// name, and only those t's filter admits are registered. stop, when
	// not nil, is called once the child has ended.
	Tools func(log *session.Log, t Type) (tools []*registry.Tool, stop func(), err error)
	// Types are the user-defined types, offered beside the built-in ones.
	Types []Type
	// ParentOnly names tools that act on the parent's session itself
	// (leaving plan mode, say): no child sees them, whatever its type
	// says. The task tool is never inherited either (a child that may
	// nest gets its own).
	ParentOnly []string
	// MaxParallel bounds how many children run at once (more tasks wait
	// for a place); DefaultMaxParallel when 0.
	MaxParallel int
	// MaxSteps bounds each child's model requests per turn; past it the
	// task fails. DefaultMaxSteps when 0.
	MaxSteps int
	// MaxDepth is how deep children may nest: 1 (DefaultMaxDepth, when 0)
	// lets no child start children; deeper, a child whose type's tools
	// list task gets a task tool of its own.
	MaxDepth int
}

// Runner starts the child agents of one parent agent. It is safe for
// concurrent use.
type Runner struct {
	opts  Options
	types []Type
	sem   chan struct{}
	// depth is how many runners are above this one (0 for a session's).
	depth int
	// readOnly says an enclosing child is read-only, so every child of
	// this runner is too.
	readOnly bool
	// running holds the children running now, of this runner and of those
	// nested below it, by id.
	running *runningSet
}

// runningSet is the children running now, each with the function that
// cancels it alone.
type runningSet struct {
	mu     sync.Mutex
	cancel map[string]context.CancelCauseFunc
}

// add records child id as running; the returned function forgets it.
func (s *runningSet) add(id string, cancel context.CancelCauseFunc) (remove func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancel[id] = cancel
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.cancel, id)
	}
}

// ErrCancelled is the cause of a child cancelled alone (Runner.Cancel):
// its task fails with it and its parent goes on.
var ErrCancelled = errors.New("the user stopped the subagent")

// Cancel stops the running child id alone — its task fails, its parent
// goes on — and reports whether one was running.
func (r *Runner) Cancel(id string) bool {
	r.running.mu.Lock()
	cancel := r.running.cancel[id]
	r.running.mu.Unlock()
	if cancel == nil {
		return false
	}
	cancel(ErrCancelled)
	return true
}

// New returns the runner of the parent agent opts describe, or an error
// naming a required option that is missing.
func New(opts Options) (*Runner, error) {
	switch {
	case opts.Pipeline == nil:
		return nil, errors.New("subagent: a Pipeline is required")
	case opts.Scope == nil:
		return nil, errors.New("subagent: a Scope is required")
	case opts.Log == nil:
		return nil, errors.New("subagent: a Log is required")
	case opts.Policy == nil:
		return nil, errors.New("subagent: a Policy is required")
	case opts.Agent.Provider == nil:
		return nil, errors.New("subagent: an Agent.Provider is required")
	}
	if opts.MaxParallel <= 0 {
		opts.MaxParallel = DefaultMaxParallel
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	types := Builtins()
	for _, t := range opts.Types {
		if !slices.ContainsFunc(types, func(b Type) bool { return b.Name == t.Name }) {
			types = append(types, t)
		}
	}
	return &Runner{
		opts: opts, types: types, sem: make(chan struct{}, opts.MaxParallel),
		running: &runningSet{cancel: map[string]context.CancelCauseFunc{}},
	}, nil
}

// nested returns the runner a child that may start children gets: the
// same options, below the child's scope and log, one level deeper, with
// places of its own (a child waiting for its children never holds the
// places they need).
func (r *Runner) nested(scope *registry.Scope, log *session.Log, readOnly bool) *Runner {
	opts := r.opts
	opts.Scope, opts.Log = scope, log
	return &Runner{
		opts: opts, types: r.types, sem: make(chan struct{}, opts.MaxParallel),
		depth: r.depth + 1, readOnly: readOnly, running: r.running,
	}
}

// mayNest reports whether a child of type t, started by r, gets a task
// tool of its own.
func (r *Runner) mayNest(t Type) bool {
	return r.depth+1 < r.opts.MaxDepth && slices.Contains(t.Tools, TaskTool)
}

// acquire takes a place for a child, waiting while MaxParallel run; the
// caller calls release once.
func (r *Runner) acquire(ctx context.Context) (release func(), err error) {
	select {
	case r.sem <- struct{}{}:
		return func() { <-r.sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
