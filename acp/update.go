package acp

import (
	"errors"
	"fmt"
)

// Update is one session/update an agent sends: AgentMessageChunk,
// AgentThoughtChunk, UserMessageChunk, ToolCall, ToolCallUpdate, Plan,
// AvailableCommandsUpdate, CurrentModeUpdate, ConfigOptionUpdate,
// SessionInfoUpdate, UsageUpdate, Notice, CompactionUpdate,
// CompactionSummaryChunk, PlanUpdate or PlanRemoved (the last two
// unstable). The set is closed: no type outside
// this package implements it. Each type writes its own "sessionUpdate"
// discriminator, and encoding it is one pass of encoding/json, fields in
// the order the types declare them.
type Update interface {
	// wire returns the update's wire form: its discriminator set and its
	// nested unions in their own wire forms.
	wire() (any, error)
}

// ErrMissingVariant is wrapped by the error encoding a message returns
// when a union value in it (an Update, a ContentBlock, a ToolCallContent,
// a ResourceContents, a SessionConfigOption) is nil: there is no variant
// to encode, and nothing is sent.
var ErrMissingVariant = errors.New("acp: a union value is nil")

func errNilVariant(what string) error {
	return fmt.Errorf("%w: %s", ErrMissingVariant, what)
}

// SessionNotification is the params of a session/update.
type SessionNotification struct {
	SessionID string
	Update    Update
	Meta      map[string]any
}

type notificationWire struct {
	SessionID string         `json:"sessionId"`
	Update    any            `json:"update"`
	Meta      map[string]any `json:"_meta,omitempty"`
}

// MarshalJSON encodes the notification in one pass of encoding/json,
// without HTML escaping: {"sessionId":…,"update":{"sessionUpdate":…,…}}.
// A nil Update, or a nil union value inside it, is an error wrapping
// ErrMissingVariant.
func (n SessionNotification) MarshalJSON() ([]byte, error) {
	// The hottest update, a plain text chunk, has a wire form of its own:
	// small, with no optional member to weigh.
	switch u := n.Update.(type) {
	case AgentMessageChunk:
		if w, ok := n.plainTextChunk("agent_message_chunk", ContentChunk(u)); ok {
			return marshalJSON(w)
		}
	case AgentThoughtChunk:
		if w, ok := n.plainTextChunk("agent_thought_chunk", ContentChunk(u)); ok {
			return marshalJSON(w)
		}
	case nil:
		return nil, errNilVariant("update")
	}
	w, err := n.Update.wire()
	if err != nil {
		return nil, err
	}
	return marshalJSON(notificationWire{n.SessionID, w, n.Meta})
}

// marshalUpdate encodes an update on its own, as the "update" member of a
// session/update holds it.
func marshalUpdate(u Update) ([]byte, error) {
	w, err := u.wire()
	if err != nil {
		return nil, err
	}
	return marshalJSON(w)
}

// ContentChunk is a streamed piece of a message: its content block, and
// optionally the id of the message it belongs to.
type ContentChunk struct {
	Content   ContentBlock
	MessageID string
	Meta      map[string]any
}

// AgentMessageChunk streams a piece of the agent's answer.
type AgentMessageChunk ContentChunk

// AgentThoughtChunk streams a piece of the agent's reasoning.
type AgentThoughtChunk ContentChunk

// UserMessageChunk streams a piece of the user's message (a replay).
type UserMessageChunk ContentChunk

type chunkWire struct {
	SessionUpdate string         `json:"sessionUpdate"`
	Content       any            `json:"content"`
	MessageID     string         `json:"messageId,omitempty"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

// plainTextChunkWire is the wire form of a notification holding a text
// chunk with nothing but its text.
type plainTextChunkWire struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		SessionUpdate string `json:"sessionUpdate"`
		Content       struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"update"`
}

// plainTextChunk returns the plain wire form of n holding c, when c is a
// text chunk with no message id, annotations or _meta.
func (n SessionNotification) plainTextChunk(kind string, c ContentChunk) (*plainTextChunkWire, bool) {
	t, ok := c.Content.(TextContent)
	if !ok || n.Meta != nil || c.MessageID != "" || c.Meta != nil || t.Annotations != nil || t.Meta != nil {
		return nil, false
	}
	w := &plainTextChunkWire{SessionID: n.SessionID}
	w.Update.SessionUpdate = kind
	w.Update.Content.Type = "text"
	w.Update.Content.Text = t.Text
	return w, true
}

func (c ContentChunk) wire(kind string) (any, error) {
	block, err := contentWire(c.Content)
	if err != nil {
		return nil, err
	}
	return chunkWire{kind, block, c.MessageID, c.Meta}, nil
}

func (c AgentMessageChunk) wire() (any, error) { return ContentChunk(c).wire("agent_message_chunk") }
func (c AgentThoughtChunk) wire() (any, error) { return ContentChunk(c).wire("agent_thought_chunk") }
func (c UserMessageChunk) wire() (any, error)  { return ContentChunk(c).wire("user_message_chunk") }

// Plan replaces the client's view of the agent's plan.
type Plan struct {
	Entries []PlanEntry
	Meta    map[string]any
}

// PlanEntry is one step of a plan.
type PlanEntry struct {
	Content  string            `json:"content"`
	Priority PlanEntryPriority `json:"priority"`
	Status   PlanEntryStatus   `json:"status"`
	Meta     map[string]any    `json:"_meta,omitempty"`
}

// PlanEntryPriority is "high", "medium" or "low".
type PlanEntryPriority string

// PlanEntryStatus is "pending", "in_progress" or "completed".
type PlanEntryStatus string

type planWire struct {
	SessionUpdate string         `json:"sessionUpdate"`
	Entries       []PlanEntry    `json:"entries"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

func (p Plan) wire() (any, error) {
	entries := p.Entries
	if entries == nil {
		entries = []PlanEntry{}
	}
	return planWire{"plan", entries, p.Meta}, nil
}

// AvailableCommandsUpdate replaces the slash commands the client offers.
type AvailableCommandsUpdate struct {
	AvailableCommands []AvailableCommand
	Meta              map[string]any
}

// AvailableCommand is a slash command; Input, when set, says the command
// takes free text.
type AvailableCommand struct {
	Name        string                    `json:"name"`
	Description string                    `json:"description"`
	Input       *UnstructuredCommandInput `json:"input,omitempty"`
	Meta        map[string]any            `json:"_meta,omitempty"`
}

// UnstructuredCommandInput is a command's free-text input, with a hint
// shown while it is empty.
type UnstructuredCommandInput struct {
	Hint string         `json:"hint"`
	Meta map[string]any `json:"_meta,omitempty"`
}

type availableCommandsWire struct {
	SessionUpdate     string             `json:"sessionUpdate"`
	AvailableCommands []AvailableCommand `json:"availableCommands"`
	Meta              map[string]any     `json:"_meta,omitempty"`
}

func (u AvailableCommandsUpdate) wire() (any, error) {
	cmds := u.AvailableCommands
	if cmds == nil {
		cmds = []AvailableCommand{}
	}
	return availableCommandsWire{"available_commands_update", cmds, u.Meta}, nil
}

// CurrentModeUpdate says the session switched to another mode.
type CurrentModeUpdate struct {
	CurrentModeID string
	Meta          map[string]any
}

type currentModeWire struct {
	SessionUpdate string         `json:"sessionUpdate"`
	CurrentModeID string         `json:"currentModeId"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

func (u CurrentModeUpdate) wire() (any, error) {
	return currentModeWire{"current_mode_update", u.CurrentModeID, u.Meta}, nil
}

// SessionInfoUpdate changes the session's metadata; empty fields are left
// as they are.
type SessionInfoUpdate struct {
	Title     string
	UpdatedAt string // RFC 3339
	Meta      map[string]any
}

type sessionInfoWire struct {
	SessionUpdate string         `json:"sessionUpdate"`
	Title         string         `json:"title,omitempty"`
	UpdatedAt     string         `json:"updatedAt,omitempty"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

func (u SessionInfoUpdate) wire() (any, error) {
	return sessionInfoWire{"session_info_update", u.Title, u.UpdatedAt, u.Meta}, nil
}

// UsageUpdate reports how much of the context window is used (Used of
// Size tokens) and, optionally, what the session cost so far.
type UsageUpdate struct {
	Used int64
	Size int64
	Cost *Cost
	Meta map[string]any
}

// Cost is an amount of money in an ISO 4217 currency.
type Cost struct {
	Amount   float64        `json:"amount"`
	Currency string         `json:"currency"`
	Meta     map[string]any `json:"_meta,omitempty"`
}

type usageWire struct {
	SessionUpdate string         `json:"sessionUpdate"`
	Used          int64          `json:"used"`
	Size          int64          `json:"size"`
	Cost          *Cost          `json:"cost,omitempty"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

func (u UsageUpdate) wire() (any, error) {
	return usageWire{"usage_update", u.Used, u.Size, u.Cost, u.Meta}, nil
}
