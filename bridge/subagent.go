package bridge

import (
	"strings"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/subagent"
)

// taskProgress is what a task call's card shows of its child so far: a
// line per call the child made, with its title.
type taskProgress struct {
	lines []string
}

func (p *taskProgress) text() string { return strings.Join(p.lines, "\n") }

// childCallID is the id a child's call is shown with, unique in the
// parent's session whatever ids the child's model chose: the child's id
// (a grandchild's after its parent's, slash-separated), then the call's.
func childCallID(childPath, callID string) string { return childPath + "/" + callID }

// subagentEvent shows one event of a child inside its parent's session:
// each call it makes as a line of the task call's card, its edits and
// commands also as cards of their own (so the user reviews its diffs and
// follows its terminals), its usage counted in the session's cost. Its
// messages, thoughts and plan are its own and are not shown. A
// grandchild's events show in the same task's card.
func (m *Mapper) subagentEvent(ev session.Event, p session.SubagentEvent) []acp.Update {
	if m.opts.Subagents {
		return m.childSessionEvent(ev, p)
	}
	return m.childPayload(p.CallID, p.ID, p.Payload)
}

// subagentStarted announces a child, to a client that shows children as
// sessions: a subagent_update (its title the task's description, which
// the client may cancel alone, running) before any of its updates, and
// the task's card linked to it (_meta.subagent_session_id).
func (m *Mapper) subagentStarted(p session.SubagentStarted) []acp.Update {
	if !m.opts.Subagents {
		return nil
	}
	opts := m.opts
	opts.Replay = true // the child's prompt is its parent's, not the user's: show it
	m.children[p.ID] = NewMapper(opts)
	updates := []acp.Update{acp.SubagentUpdate{
		SessionID: p.ID, Title: p.Description, Description: p.Type + " subagent",
		Cancel: true, State: &acp.SubagentState{State: acp.SubagentRunning},
	}}
	if m.announced[p.CallID] {
		updates = append(updates, acp.ToolCallUpdate{ToolCallID: p.CallID, Meta: &acp.ToolCallUpdateMeta{SubagentSessionID: p.ID}})
	}
	return updates
}

// subagentEnded tells a client that shows children as sessions that the
// child's work ended, and why.
func (m *Mapper) subagentEnded(p session.SubagentEnded) []acp.Update {
	if !m.opts.Subagents {
		return nil
	}
	delete(m.children, p.ID)
	return []acp.Update{acp.SubagentUpdate{SessionID: p.ID, State: &acp.SubagentState{State: acp.SubagentIdle, StopReason: string(p.Reason)}}}
}

// childSessionEvent shows a child's event under the child's session id,
// as its own mapper maps it (every update a ChildUpdate), and counts its
// cost in the session's too.
func (m *Mapper) childSessionEvent(ev session.Event, p session.SubagentEvent) []acp.Update {
	child := m.children[p.ID]
	if child == nil {
		return nil // never announced (its start is not in the log)
	}
	ev.Payload = p.Payload
	inner := child.Map(ev)
	updates := make([]acp.Update, 0, len(inner)+1)
	for _, u := range inner {
		updates = append(updates, acp.ChildUpdate{SessionID: p.ID, Update: u})
	}
	if u, ok := innermost(p.Payload).(session.Usage); ok {
		updates = append(updates, m.childUsage(u)...)
	}
	return updates
}

// innermost is the event a chain of SubagentEvents holds.
func innermost(p session.Payload) session.Payload {
	for {
		e, ok := p.(session.SubagentEvent)
		if !ok {
			return p
		}
		p = e.Payload
	}
}

// childPayload is subagentEvent for payload p of the child at childPath,
// shown in the card of task call taskCall.
func (m *Mapper) childPayload(taskCall, childPath string, p session.Payload) []acp.Update {
	switch p := p.(type) {
	case session.SubagentEvent:
		return m.childPayload(taskCall, childPath+"/"+p.ID, p.Payload)
	case session.ToolCall:
		p.CallID = childCallID(childPath, p.CallID)
		card, kind := m.opts.callCard(p)
		var updates []acp.Update
		if line, ok := m.progressLine(taskCall, card.Title); ok {
			updates = append(updates, line)
		}
		if kind != genericCard {
			updates = append(updates, m.toolCall(p))
		}
		return updates
	case session.ToolStarted:
		p.CallID = childCallID(childPath, p.CallID)
		return m.mapEvent(session.Event{Payload: p})
	case session.ToolOutput:
		p.CallID = childCallID(childPath, p.CallID)
		return m.mapEvent(session.Event{Payload: p})
	case session.ToolResult:
		p.CallID = childCallID(childPath, p.CallID)
		return m.mapEvent(session.Event{Payload: p})
	case session.Usage:
		return m.childUsage(p)
	default:
		return nil
	}
}

// progressLine adds a line for a child's call titled title to the card of
// taskCall, and returns the card's update; ok is false when the editor
// was never shown that card.
func (m *Mapper) progressLine(taskCall, title string) (acp.ToolCallUpdate, bool) {
	if !m.announced[taskCall] {
		return acp.ToolCallUpdate{}, false
	}
	prog := m.tasks[taskCall]
	if prog == nil {
		prog = &taskProgress{}
		m.tasks[taskCall] = prog
	}
	prog.lines = append(prog.lines, "- "+escapeControls(title))
	return acp.ToolCallUpdate{ToolCallID: taskCall, Content: []acp.ToolCallContent{textItem(prog.text())}}, true
}

// withProgress is the result of a task call, its child's lines first
// and its answer after them.
func (m *Mapper) withProgress(u acp.ToolCallUpdate) acp.ToolCallUpdate {
	prog := m.tasks[u.ToolCallID]
	if prog == nil {
		return u
	}
	delete(m.tasks, u.ToolCallID)
	u.Content = append([]acp.ToolCallContent{textItem(prog.text())}, u.Content...)
	return u
}

// childUsage counts what a child's request cost in the session's cost,
// shown with the parent's context as it last was (the child's context is
// its own).
func (m *Mapper) childUsage(p session.Usage) []acp.Update {
	cost := m.cost.add(p.Cost, p.Currency)
	if m.lastUsage == nil || cost == nil {
		return nil
	}
	u := *m.lastUsage
	u.Cost = cost
	return []acp.Update{u}
}

// approvalCallID is the id the editor was shown req's call with in the
// parent's session: a child's call under its child's id (childCallID),
// so the permission prompt and the card are one; and attribution names
// the child that asks ("explore subagent: find the parser"), or "" for
// the parent's own call.
func approvalCallID(req pipeline.ApprovalRequest) (id, attribution string) {
	id = req.CallID
	path := childPath(req)
	if len(path) == 0 {
		return id, ""
	}
	return childCallID(strings.Join(path, "/"), id), taskAttribution(req.Call.Parent())
}

// childPath lists the ids of the children, outermost first, whose call
// req asks about; none for the session's own call.
func childPath(req pipeline.ApprovalRequest) []string {
	if req.Call == nil || req.Call.Parent() == nil || req.Scope == nil {
		return nil
	}
	var path []string // the child scopes' names, the session's own scope (the root) left out
	for s := req.Scope; s.Parent() != nil; s = s.Parent() {
		path = append([]string{s.Name()}, path...)
	}
	return path
}

// taskAttribution names the child a task call started: its type and
// description.
func taskAttribution(task *registry.Call) string {
	var args subagent.TaskArgs
	if err := task.Arguments().Decode(&args); err != nil {
		return "subagent"
	}
	kind := args.SubagentType
	if kind == "" {
		kind = subagent.General
	}
	if d := strings.TrimSpace(args.Description); d != "" {
		return kind + " subagent: " + d
	}
	return kind + " subagent"
}
