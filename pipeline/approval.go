package pipeline

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// ApprovalOutcome is the answer to an approval request: the user's, or
// the client's own policy's when it answers without asking anyone.
type ApprovalOutcome int

// The approval outcomes. Only ApprovalAllowedOnce lets the call run.
const (
	ApprovalAllowedOnce ApprovalOutcome = iota + 1
	ApprovalRejected
	ApprovalCancelled
	ApprovalUnavailable
)

// ApprovalRequest asks the user whether a call may run. It carries what
// the user approves and why they are asked, so an approver shows it and
// derives nothing.
type ApprovalRequest struct {
	Call     *registry.Call
	Scope    *registry.Scope
	ToolName string
	CallID   string
	// Card is what the user approves: the call's approval card
	// (registry.Bound.PresentApproval), computed when the call asks, from
	// the world as it is then — the hunks an edit would apply to the file
	// as it is now — or its pending card when the tool has no other; nil
	// when the tool has no card at all.
	Card presentation.CallView
	// Reason is why the call asks, as the pre-execute chain said it (a
	// clause about the call: "writes /etc/x, outside the workspace"); may
	// be "".
	Reason string
}

// Approver is the approval seam: it asks the user, typically through the
// editor. It must return when ctx is cancelled (ApprovalCancelled). An error
// denies the call (it fails closed), and the denial names the error.
type Approver interface {
	RequestApproval(ctx context.Context, req ApprovalRequest) (ApprovalOutcome, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, req ApprovalRequest) (ApprovalOutcome, error)

// RequestApproval calls f.
func (f ApproverFunc) RequestApproval(ctx context.Context, req ApprovalRequest) (ApprovalOutcome, error) {
	return f(ctx, req)
}

// resolveAsk turns an ask into allow or deny through the approver. It
// reports whether the approval was cancelled; an unknown outcome is an
// error.
func (p *Pipeline) resolveAsk(ctx context.Context, call *registry.Call, reason string) (d Decision, cancelled bool, err error) {
	name := call.Name()
	unavailable := Deny(fmt.Sprintf("tool %q requires approval%s, but no approval channel is available", name, because(reason)))
	if p.approver == nil {
		return unavailable, false, nil
	}
	if call.Scope() == nil {
		return Deny(fmt.Sprintf("tool %q requires approval, but the call has no agent to route it through", name)), false, nil
	}
	var outcome ApprovalOutcome
	reqErr := protect(func() (err error) {
		outcome, err = p.approver.RequestApproval(ctx, ApprovalRequest{
			Call: call, Scope: call.Scope(), ToolName: name, CallID: call.ID(),
			Card: call.Bound().PresentApproval(ctx), Reason: reason,
		})
		return err
	})
	if reqErr != nil {
		// Fail closed, and say why.
		p.logger.Warn("approval request failed", "tool", name, "call", call.ID(), "err", reqErr)
		return Deny(fmt.Sprintf("tool %q requires approval, but asking for it failed: %v", name, reqErr)), false, nil
	}
	switch outcome {
	case ApprovalAllowedOnce:
		return Allow(), false, nil
	case ApprovalRejected:
		// Who answered is not known: a person, or the client's own policy
		// without asking anyone (acpx --deny-all answers "reject" too).
		return Deny(fmt.Sprintf("tool %q did not run: the permission request was answered \"reject\"", name)), false, nil
	case ApprovalCancelled:
		return Deny(fmt.Sprintf("approval for tool %q was cancelled", name)), true, nil
	case ApprovalUnavailable:
		return unavailable, false, nil
	default:
		return Decision{}, false, fmt.Errorf("approval for tool %q returned unknown outcome %d", name, outcome)
	}
}

// because is reason as a parenthesis after "requires approval", or "".
func because(reason string) string {
	if reason == "" {
		return ""
	}
	return " (" + reason + ")"
}
