package pipeline

import (
	"context"
	"fmt"

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

// ApprovalRequest asks the user whether a call may run.
type ApprovalRequest struct {
	Call     *registry.Call
	Scope    *registry.Scope
	ToolName string
	CallID   string
	// Reason is what the policy said about the call; may be "".
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
	if p.approver == nil {
		if reason == "" {
			reason = fmt.Sprintf("tool %q requires approval (not yet supported)", name)
		}
		return Deny(reason), false, nil
	}
	if call.Scope() == nil {
		return Deny(fmt.Sprintf("tool %q requires approval, but the call has no agent to route it through", name)), false, nil
	}
	var outcome ApprovalOutcome
	reqErr := protect(func() (err error) {
		outcome, err = p.approver.RequestApproval(ctx, ApprovalRequest{
			Call: call, Scope: call.Scope(), ToolName: name, CallID: call.ID(), Reason: reason,
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
		return Deny(fmt.Sprintf("tool %q requires approval, but no approval channel is available", name)), false, nil
	default:
		return Decision{}, false, fmt.Errorf("approval for tool %q returned unknown outcome %d", name, outcome)
	}
}
