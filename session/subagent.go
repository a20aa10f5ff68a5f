package session

// SubagentStarted announces a child agent that a task call (CallID, in
// this log) started: the child's events follow as SubagentEvents with its
// ID, and a SubagentEnded closes it. Type names the child's subagent type
// and Description is the task's short description, as the editor shows it.
type SubagentStarted struct {
	ID          string
	CallID      string
	Type        string
	Description string
}

// SubagentEvent is one event of a child agent's own log, as its parent's
// log keeps it: the child's model never reads the parent's events and
// the parent's model never reads these, but the editor is shown them and
// a replay shows them again. Payload is the child's event (a grandchild's
// is itself a SubagentEvent).
type SubagentEvent struct {
	ID      string
	CallID  string
	Payload Payload
}

// SubagentEnded closes a child agent: why its work ended and, for a
// failed child, why it failed.
type SubagentEnded struct {
	ID     string
	CallID string
	Reason StopReason
	Error  string
}

// Kind returns "subagent/start".
func (SubagentStarted) Kind() string { return "subagent/start" }

// Kind returns "subagent/event".
func (SubagentEvent) Kind() string { return "subagent/event" }

// Kind returns "subagent/end".
func (SubagentEnded) Kind() string { return "subagent/end" }

func (SubagentStarted) isPayload() {}
func (SubagentEvent) isPayload()   {}
func (SubagentEnded) isPayload()   {}
