package pipeline

import (
	"errors"
	"fmt"
)

var (
	errReplaceBoth      = errors.New("post-execute accept decision cannot replace both value and content")
	errReplaceFailed    = errors.New("post-execute cannot replace the value of a failed result")
	errUnserializable   = errors.New("tool result must be losslessly JSON-serializable")
	errWrapperNoOutcome = errors.New("execute wrapper returned neither a success value nor an error")
)

func errUnknownDecision(kind DecisionKind) error {
	return fmt.Errorf("pre-execute returned unknown decision kind %d", kind)
}

func errUnknownPostDecision(kind PostDecisionKind) error {
	return fmt.Errorf("post-execute returned unknown decision kind %d", kind)
}
