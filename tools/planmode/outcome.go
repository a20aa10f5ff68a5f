package planmode

import (
	"encoding/json"
	"fmt"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// The lines the user reads on the call's card once they answered (the
// model reads its instructions instead).
const (
	ApprovedLine = "Plan approved — implementing"
	KeptLine     = "Keep planning"
)

// Outcome is what the user answered a plan review: they approved it (the
// session is now in Mode), or chose to keep planning. It is also the
// call's presentation meta.
type Outcome struct {
	Approved bool   `json:"approved"`
	Mode     string `json:"mode,omitempty"`
}

// instructions is what the model is told of the outcome.
func (o Outcome) instructions() string {
	if !o.Approved {
		return "The user chose to keep planning: the session stays in plan mode. Revise the plan — " +
			"if their messages do not say what to change, end your turn asking them — and present the revised plan with " + Name + "."
	}
	return fmt.Sprintf("The user approved the plan. The session has left plan mode and is now in %s mode: "+
		"implement the plan now, in this turn, step by step, and check the result as the plan says.", o.Mode)
}

// line is what the user reads of the outcome.
func (o Outcome) line() string {
	if o.Approved {
		return ApprovedLine
	}
	return KeptLine
}

// presentOutcome is the finished call's card: the outcome in the user's
// words, a summary that leaves the model's instructions to the call's raw
// output. A failed call, or one without the outcome in its meta, has no
// card of its own.
func presentOutcome(r presentation.ToolResult) presentation.ResultView {
	var o Outcome
	if r.IsError || r.Meta == "" || json.Unmarshal([]byte(r.Meta), &o) != nil {
		return nil
	}
	return presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text(o.line())}, Summary: true}
}
