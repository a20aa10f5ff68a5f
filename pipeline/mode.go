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

// ExecutionMode classifies in: it is Bind(in).Mode(), for a caller that
// asks nothing else before running the call.
func (p *Pipeline) ExecutionMode(in Input) ExecutionMode {
	return p.Bind(in).Mode()
}
