package registry

import "sync"

// CallSpec describes a tool call for NewCall.
type CallSpec struct {
	// ID is the call's id, unique within a session.
	ID string
	// RootID is the id of the top-level call this one descends from; it
	// defaults to ID.
	RootID string
	// Name is the tool name the model (or host) asked for.
	Name string
	// Arguments are the materialized arguments. With Bound set they are
	// ignored: the call takes the arguments bound there.
	Arguments Arguments
	// Bound, when set, is the call's arguments bound to its tool
	// (Tool.Bind), so every stage asks it instead of decoding again.
	Bound Bound
	// Scope is the agent the call runs for; nil for an agent-less call.
	Scope *Scope
	// Parent is the call that dispatched this one; nil for a model-direct
	// (top-level) call.
	Parent *Call
	// OnProgress, when set, receives what the running tool reports before
	// it finishes (Call.Report). It must be safe for concurrent use.
	OnProgress func(Progress)
}

// Progress is what a running tool reports before it finishes, such as a
// command's output as it arrives.
type Progress struct {
	// Output is the next chunk of terminal output.
	Output string
}

// Call is one tool execution as every pipeline stage and the tool body see
// it. Its identity fields never change; the pointer itself is the
// execution's unique token. The body uses DeferContext and ConcludeTurn to
// shape its own result.
type Call struct {
	spec CallSpec

	mu        sync.Mutex
	deferred  []ContextMessage
	concludes bool
}

// NewCall returns the Call for spec.
func NewCall(spec CallSpec) *Call {
	if spec.Bound.b != nil {
		spec.Arguments = spec.Bound.b.arguments()
	}
	if spec.RootID == "" {
		spec.RootID = spec.ID
	}
	return &Call{spec: spec}
}

// ID returns the call's id.
func (c *Call) ID() string { return c.spec.ID }

// RootID returns the id of the top-level call this one descends from.
func (c *Call) RootID() string { return c.spec.RootID }

// Name returns the tool name.
func (c *Call) Name() string { return c.spec.Name }

// Arguments returns the materialized arguments.
func (c *Call) Arguments() Arguments { return c.spec.Arguments }

// Bound returns the call's arguments bound to its tool, or the zero Bound
// when the call was made without one (its tool was not found, or its
// arguments could not be materialized).
func (c *Call) Bound() Bound { return c.spec.Bound }

// Scope returns the agent scope the call runs for, or nil.
func (c *Call) Scope() *Scope { return c.spec.Scope }

// Parent returns the dispatching call, or nil for a top-level call.
func (c *Call) Parent() *Call { return c.spec.Parent }

// TopLevel reports whether a model called the tool directly: the call
// has no parent, or its parent runs for another scope — a child agent's
// own model made it, inside its parent's task call, and the child's
// calls are shown as the parent's are.
func (c *Call) TopLevel() bool {
	return c.spec.Parent == nil || c.spec.Parent.spec.Scope != c.spec.Scope
}

// Report hands p to whoever watches the call; without a watcher it does
// nothing. Tools may call it from any goroutine while their body runs.
func (c *Call) Report(p Progress) {
	if c.spec.OnProgress != nil {
		c.spec.OnProgress(p)
	}
}

// DeferContext attaches m to this call's own result; the loop hands it to
// the model after the batch's results. Deferred contexts keep their order
// and survive a failure of the call (but not a post-execute block).
func (c *Call) DeferContext(m ContextMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.deferred = append(c.deferred, m.Clone())
}

// ConcludeTurn asks the loop to end the turn after this call's batch, if
// the call succeeds.
func (c *Call) ConcludeTurn() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.concludes = true
}

// Deferred returns a copy of the contexts deferred so far.
func (c *Call) Deferred() []ContextMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CloneContexts(c.deferred)
}

// Concludes reports whether the body called ConcludeTurn.
func (c *Call) Concludes() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.concludes
}
