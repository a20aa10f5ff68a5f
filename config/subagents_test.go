package config

import "testing"

func TestSubagentBounds(t *testing.T) {
	f, err := Parse("c.toml", []byte("[subagents]\nmax_parallel = 2\nmax_steps = 50\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Subagents{MaxParallel: 2, MaxSteps: 50}); f.Subagents != want {
		t.Errorf("Subagents = %+v, want %+v", f.Subagents, want)
	}
	if f, err := Parse("c.toml", nil); err != nil || f.Subagents != (Subagents{}) {
		t.Errorf("no table: %+v, %v", f.Subagents, err)
	}
}
