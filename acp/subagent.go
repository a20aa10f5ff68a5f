package acp

// SubagentUpdate announces a child session that this session created and
// owns, or updates what its parent says of it (schema.unstable.json's
// subagent_update). The first one for a SessionID goes before any of the
// child's own updates. Send it only to a client that advertised
// clientCapabilities.subagents.
type SubagentUpdate struct {
	// SessionID is the child's session id. Required.
	SessionID string
	// Title and Description are what the parent says the child is for
	// ("" leaves them as they were).
	Title       string
	Description string
	// Cancel, when set, lets the client cancel the child's work alone
	// (session/cancel with the child's session id).
	Cancel bool
	// State, when set, is the child's work state now.
	State *SubagentState
	Meta  map[string]any
}

// SubagentState is a child's foreground work state.
type SubagentState struct {
	// State is "running" or "idle".
	State string
	// StopReason says why an idle child's work ended ("end_turn",
	// "cancelled", …); "" reports none.
	StopReason string
}

// The subagent work states we send.
const (
	SubagentRunning = "running"
	SubagentIdle    = "idle"
)

type subagentUpdateWire struct {
	SessionUpdate string             `json:"sessionUpdate"`
	SessionID     string             `json:"sessionId"`
	Title         string             `json:"title,omitempty"`
	Description   string             `json:"description,omitempty"`
	Capabilities  *subagentCapsWire  `json:"capabilities,omitempty"`
	State         *subagentStateWire `json:"state,omitempty"`
	Meta          map[string]any     `json:"_meta,omitempty"`
}

type subagentCapsWire struct {
	Cancel *struct{} `json:"cancel,omitempty"`
}

type subagentStateWire struct {
	State      string `json:"state"`
	StopReason string `json:"stopReason,omitempty"`
}

func (u SubagentUpdate) wire() (any, error) {
	w := subagentUpdateWire{SessionUpdate: "subagent_update", SessionID: u.SessionID, Title: u.Title, Description: u.Description, Meta: u.Meta}
	if u.Cancel {
		w.Capabilities = &subagentCapsWire{Cancel: &struct{}{}}
	}
	if u.State != nil {
		w.State = &subagentStateWire{State: u.State.State, StopReason: u.State.StopReason}
	}
	return w, nil
}

// MarshalJSON encodes the update as a session/update.
func (u SubagentUpdate) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }

// ChildUpdate is Update sent on a child session's id (SessionID) instead
// of the session it was made for: the updates of a subagent, which a
// client that advertised clientCapabilities.subagents shows under the
// child. ChildUpdates nest; the innermost SessionID wins.
type ChildUpdate struct {
	SessionID string
	Update    Update
}

func (u ChildUpdate) wire() (any, error) {
	if u.Update == nil {
		return nil, ErrMissingVariant
	}
	return u.Update.wire()
}

// MarshalJSON encodes the inner update as a session/update.
func (u ChildUpdate) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }

// Route returns the session an update goes to and the update to send
// there: sessionID and u itself, or, for a ChildUpdate, its (innermost)
// child's id and update.
func Route(sessionID string, u Update) (string, Update) {
	for {
		c, ok := u.(ChildUpdate)
		if !ok {
			return sessionID, u
		}
		sessionID, u = c.SessionID, c.Update
	}
}
