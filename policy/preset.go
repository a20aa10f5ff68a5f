package policy

import "fmt"

// Preset is a named permission baseline.
type Preset string

// The presets, offered to the editor as the "mode" config option.
const (
	// ReadOnly runs reads inside the workspace; everything else asks.
	ReadOnly Preset = "read-only"
	// WorkspaceWrite runs reads and writes inside the workspace; commands
	// and anything outside the workspace ask. It is the default.
	WorkspaceWrite Preset = "workspace-write"
	// FullAccess runs everything without asking.
	FullAccess Preset = "full-access"
	// Plan is for working out a plan before changing anything: reads and
	// read-only commands run as under ReadOnly; writes, edits and every
	// other command are refused without asking (plan.go), and the model
	// presents its plan with exit_plan_mode, which asks the user to
	// switch back to implementing it.
	Plan Preset = "plan"
)

// Presets lists the presets in the order they are offered.
func Presets() []Preset { return []Preset{ReadOnly, WorkspaceWrite, FullAccess, Plan} }

// ParsePreset returns the preset named s.
func ParsePreset(s string) (Preset, error) {
	for _, p := range Presets() {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown permission preset %q (want read-only, workspace-write, full-access or plan)", s)
}

// Description is a one-line explanation for the editor's option list.
func (p Preset) Description() string {
	switch p {
	case ReadOnly:
		return "Read files in the workspace; ask before anything else"
	case WorkspaceWrite:
		return "Read and edit files in the workspace; ask before commands and anything outside it"
	case FullAccess:
		return "Read, edit and run anything without asking"
	case Plan:
		return "Read and plan only: no edits or commands that change anything, until you approve the agent's plan"
	default:
		return ""
	}
}

// ChangesNothing reports whether commands under p may change nothing in
// the workspace (ReadOnly and Plan): their sandbox lets them write only
// the temporary directories.
func (p Preset) ChangesNothing() bool { return p == ReadOnly || p == Plan }

// AtMost returns whichever of p and limit allows less: plan allows less
// than read-only, which allows less than workspace-write, which allows
// less than full-access. A preset this build does not rank counts as
// allowing least of all, so it is kept over a ranked limit.
func (p Preset) AtMost(limit Preset) Preset {
	if p.rank() <= limit.rank() {
		return p
	}
	return limit
}

// rank orders the presets by what they allow; unknown ones rank lowest.
func (p Preset) rank() int {
	switch p {
	case Plan:
		return 1
	case ReadOnly:
		return 2
	case WorkspaceWrite:
		return 3
	case FullAccess:
		return 4
	default:
		return 0
	}
}
