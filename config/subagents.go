package config

// Subagents is the [subagents] table: the bounds of the child agents the
// task tool starts; 0 leaves a bound at the program's default.
type Subagents struct {
	// MaxParallel is how many children run at once (max_parallel).
	MaxParallel int
	// MaxSteps is each child's budget of model requests (max_steps).
	MaxSteps int
	// MaxDepth is how deep children nest (max_depth; 1: children start
	// none).
	MaxDepth int
}

type rawSubagents struct {
	MaxParallel *int `toml:"max_parallel"`
	MaxSteps    *int `toml:"max_steps"`
	MaxDepth    *int `toml:"max_depth"`
}

// The bounds a [subagents] key may take.
const (
	maxSubagentParallel = 16
	maxSubagentSteps    = 1000
	maxSubagentDepth    = 3
)

// subagents checks the [subagents] table.
func (b *builder) subagents(raw *rawSubagents) Subagents {
	if raw == nil {
		return Subagents{}
	}
	return Subagents{
		MaxParallel: b.bounded("max_parallel", raw.MaxParallel, maxSubagentParallel),
		MaxSteps:    b.bounded("max_steps", raw.MaxSteps, maxSubagentSteps),
		MaxDepth:    b.bounded("max_depth", raw.MaxDepth, maxSubagentDepth),
	}
}

// bounded checks subagents.<key>: from 1 to most; 0 when not given or
// out of bounds (the problem recorded).
func (b *builder) bounded(key string, v *int, most int) int {
	if v == nil {
		return 0
	}
	if *v < 1 || *v > most {
		b.fail([]string{"subagents", key}, "%d is out of bounds: want 1 to %d", *v, most)
		return 0
	}
	return *v
}
