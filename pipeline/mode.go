package pipeline

// ExecutionMode says whether a call may run beside others.
type ExecutionMode int

// The execution modes.
const (
	// Exclusive calls run alone, as a barrier between parallel groups.
	Exclusive ExecutionMode = iota
	// Parallel calls may overlap with other parallel calls.
	Parallel
)

// String returns "exclusive" or "parallel".
func (m ExecutionMode) String() string {
	if m == Parallel {
		return "parallel"
	}
	return "exclusive"
}

// ExecutionMode classifies in: Parallel only when the tool is visible to
// the call's scope and its classifier says exactly true for the
// arguments; anything else (unknown tool, no classifier, invalid
// arguments, a panic) is Exclusive.
func (p *Pipeline) ExecutionMode(in Input) ExecutionMode {
	tool := p.reg.Get(in.Name, in.Scope)
	if tool == nil {
		return Exclusive
	}
	args, err := in.arguments()
	if err != nil {
		return Exclusive
	}
	if tool.ConcurrencySafe(args) {
		return Parallel
	}
	return Exclusive
}
