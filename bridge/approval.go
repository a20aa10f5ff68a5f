package bridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/session"
)

// The permission options offered for every ask, by id.
const (
	optionAllowOnce    = "allow-once"
	optionAllowAlways  = "allow-always"
	optionRejectOnce   = "reject-once"
	optionRejectAlways = "reject-always"
)

// permissionOptions are the answers offered for an ask: once, and —
// when rules can say what "always" means for the call — always, named by
// what the rules cover ("Always allow `go test …` in this project"), its
// control characters escaped (escapeControls).
func permissionOptions(rules []policy.Rule) []acp.PermissionOption {
	if len(rules) == 0 {
		return []acp.PermissionOption{
			{OptionID: optionAllowOnce, Name: "Allow once", Kind: acp.PermissionOptionKindAllowOnce},
			{OptionID: optionRejectOnce, Name: "Reject", Kind: acp.PermissionOptionKindRejectOnce},
		}
	}
	subjects := make([]string, len(rules))
	for i, r := range rules {
		subjects[i] = strings.TrimSuffix(r.Subject(), " in this project")
	}
	subject := escapeControls(strings.Join(subjects, " and ")) + " in this project"
	return []acp.PermissionOption{
		{OptionID: optionAllowOnce, Name: "Allow once", Kind: acp.PermissionOptionKindAllowOnce},
		{OptionID: optionAllowAlways, Name: "Always allow " + subject, Kind: acp.PermissionOptionKindAllowAlways},
		{OptionID: optionRejectOnce, Name: "Reject", Kind: acp.PermissionOptionKindRejectOnce},
		{OptionID: optionRejectAlways, Name: "Always reject " + subject, Kind: acp.PermissionOptionKindRejectAlways},
	}
}

// suggestRules are the rules an "always" answer to req would remember.
func (s *liveSession) suggestRules(req pipeline.ApprovalRequest) []policy.Rule {
	if s.rt.Rules() == nil || req.Call == nil {
		return nil
	}
	rules, ok := s.rt.Rules().Suggest(req.Call)
	if !ok {
		return nil
	}
	return rules
}

// remember keeps an "always" answer; a failure is logged and the answer
// still counts for this call.
func (s *liveSession) remember(rules []policy.Rule, allow bool) {
	for _, rule := range rules {
		rule.Allow = allow
		if err := s.rt.Rules().Remember(rule); err != nil {
			s.bridge.opts.Logger.Error("the rule was not remembered", "session", s.id, "rule", rule.String(), "err", err)
		}
	}
}

// RequestApproval asks the user, in the editor, whether the call may run.
// The request shows exactly what the pipeline asks about: the card it
// carries (the approval card computed when the call asked — the hunks an
// edit would apply to the file as it is — or the pending card), shown as
// the editor shows the call, with why it asks after its title
// (permissionToolCall). Either allow option lets the call run once
// (remembered rules come later); a cancelled outcome cancels the whole
// turn, as session/cancel does (the prompt answers "cancelled"), or, for
// an ask in a child's own session, that child alone; any
// other answer rejects the call; a cancelled turn cancels the ask; a
// failed request is an error, which denies the call.
func (s *liveSession) RequestApproval(ctx context.Context, req pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
	rules := s.suggestRules(req)
	toolCall, title := s.permissionToolCall(req)
	sessionID := s.id
	if path := childPath(req); len(path) > 0 && s.mapper.opts.Subagents {
		sessionID = path[len(path)-1] // the child asks in its own session
	}
	resp, err := s.client.RequestPermission(ctx, acp.RequestPermissionRequest{
		SessionID: sessionID,
		ToolCall:  toolCall,
		Options:   permissionOptions(rules),
	})
	if toolCall.Title != title {
		// Clients that keep the card the request showed (Zed, agent-shell
		// after its cancel) keep its title: give the card its own back,
		// however the ask ended.
		s.out.push(acp.ChildUpdate{SessionID: sessionID, Update: acp.ToolCallUpdate{ToolCallID: toolCall.ToolCallID, Title: title}})
	}
	switch {
	case ctx.Err() != nil:
		return pipeline.ApprovalCancelled, nil
	case err != nil:
		return 0, fmt.Errorf("request permission: %w", err)
	case resp.Outcome.Cancelled != nil && sessionID != s.id:
		// Asked in a child's own session: the user stopped that child, as
		// session/cancel on its id would; the parent's turn goes on.
		s.cancelChild(sessionID)
		return pipeline.ApprovalCancelled, nil
	case resp.Outcome.Cancelled != nil:
		// The user cancelled the prompt, not just this call (CodeCompanion's
		// Cancel and agent-shell's C-c answer so without session/cancel):
		// end the turn as session/cancel would.
		s.cancel()
		return pipeline.ApprovalCancelled, nil
	case resp.Outcome.Selected != nil:
		switch resp.Outcome.Selected.OptionId {
		case optionAllowOnce:
			return pipeline.ApprovalAllowedOnce, nil
		case optionAllowAlways:
			s.remember(rules, true)
			return pipeline.ApprovalAllowedOnce, nil
		case optionRejectAlways:
			s.remember(rules, false)
		}
	}
	return pipeline.ApprovalRejected, nil
}

// permissionToolCall is the call as the permission prompt shows it: the
// card req carries, shown as the editor shows the call (without the live
// terminal, and without a status), its title followed by why the call
// asks: `curl -s x — "curl" is not read-only and no rule allows it`.
// The title is where the reason goes because it is the one part of the
// call every client shows in its prompt: acpx asks "Allow <title>
// [<kind>]?", CodeCompanion "<Kind>: <title> ?", agent-shell's dialog
// shows the title alone, and Zed puts it at the head of the card it
// upserts; none of the first three shows the call's content there, and
// CodeCompanion draws its approval diff from the first content item, so
// that stays the card's own. A child's call is shown under the id its
// card has (childCallID), its title after the child that asks:
// "[explore subagent: find the parser] ls /etc — …". title is the card's
// own title, escaped.
func (s *liveSession) permissionToolCall(req pipeline.ApprovalRequest) (toolCall acp.ToolCall, title string) {
	args := "{}"
	if req.Call != nil {
		args = req.Call.Arguments().JSON()
	}
	id, child := approvalCallID(req)
	if s.mapper.opts.Subagents {
		id, child = req.CallID, "" // shown in the child's own session, under its own id
	}
	call := session.ToolCall{CallID: id, Name: req.ToolName, Arguments: args, View: req.Card}
	toolCall, _ = MapperOptions{Cwd: s.mapper.opts.Cwd}.callCard(call)
	toolCall.Status = ""
	title = escapeControls(toolCall.Title)
	toolCall.Title = title
	if child != "" {
		toolCall.Title = "[" + escapeControls(child) + "] " + toolCall.Title
	}
	if req.Reason != "" {
		toolCall.Title += " — " + escapeControls(req.Reason)
	}
	return toolCall, title
}
