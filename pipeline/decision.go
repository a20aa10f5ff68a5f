package pipeline

import (
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// DecisionKind is a pre-execute verdict.
type DecisionKind int

// The pre-execute verdicts.
const (
	DecisionAllow DecisionKind = iota
	DecisionDeny
	DecisionAsk
)

// Decision is what the pre-execute chain decides about a call. Arguments
// cannot be rewritten: a listener can only allow, deny or ask.
type Decision struct {
	Kind DecisionKind
	// Reason explains a deny (the model reads it), or why a call asks:
	// then a clause about the call the user reads after its card's title
	// ("writes /etc/x, outside the workspace"), and the model only if
	// nobody can be asked.
	Reason string
}

// Allow lets the call proceed to the guards.
func Allow() Decision { return Decision{Kind: DecisionAllow} }

// Deny refuses the call; the model reads "Error: <reason>".
func Deny(reason string) Decision { return Decision{Kind: DecisionDeny, Reason: reason} }

// Ask asks the user through the pipeline's Approver; reason may be "".
func Ask(reason string) Decision { return Decision{Kind: DecisionAsk, Reason: reason} }

// PostDecisionKind is a post-execute verdict.
type PostDecisionKind int

// The post-execute verdicts.
const (
	PostAccept PostDecisionKind = iota
	PostBlock
)

// PostDecision is what the post-execute chain decides about a result.
type PostDecision struct {
	Kind PostDecisionKind
	// Content, on accept, replaces the result's content when non-nil (value
	// and meta are kept); on block, it is the corrective feedback.
	Content []presentation.ContentBlock
	// Value, on accept with HasValue, replaces the result's value: it is
	// re-validated and content and meta are re-rendered from it.
	Value    any
	HasValue bool
	// AdditionalContexts are appended to the result's (on block they are
	// the only ones kept).
	AdditionalContexts []registry.ContextMessage
}

// Accept keeps the result as it is.
func Accept() PostDecision { return PostDecision{Kind: PostAccept} }

// AcceptContent keeps the result but replaces its content.
func AcceptContent(content []presentation.ContentBlock) PostDecision {
	return PostDecision{Kind: PostAccept, Content: content}
}

// AcceptValue keeps the call's success but replaces its value.
func AcceptValue(value any) PostDecision {
	return PostDecision{Kind: PostAccept, Value: value, HasValue: true}
}

// Block turns the result into a failure whose content is feedback.
func Block(feedback ...presentation.ContentBlock) PostDecision {
	return PostDecision{Kind: PostBlock, Content: feedback}
}
