//go:build !windows && !darwin

package command

// hostProgramRule: elsewhere a program's name is matched exactly.
func hostProgramRule() programRule { return programRule{} }
