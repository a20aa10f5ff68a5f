package acp

import "encoding/json"

// ToolKind is the category of a tool call, which picks the client's icon.
type ToolKind string

// The tool kinds of ACP v1.
const (
	ToolKindRead       ToolKind = "read"
	ToolKindEdit       ToolKind = "edit"
	ToolKindDelete     ToolKind = "delete"
	ToolKindMove       ToolKind = "move"
	ToolKindSearch     ToolKind = "search"
	ToolKindExecute    ToolKind = "execute"
	ToolKindThink      ToolKind = "think"
	ToolKindFetch      ToolKind = "fetch"
	ToolKindSwitchMode ToolKind = "switch_mode"
	ToolKindOther      ToolKind = "other"
)

// ToolCallStatus is where a tool call is in its life.
type ToolCallStatus string

// The tool call statuses of ACP v1.
const (
	ToolCallStatusPending    ToolCallStatus = "pending"
	ToolCallStatusInProgress ToolCallStatus = "in_progress"
	ToolCallStatusCompleted  ToolCallStatus = "completed"
	ToolCallStatusFailed     ToolCallStatus = "failed"
)

// ToolCallLocation is a file (and line) a call works on, which the client
// can follow. Line is 0-based, as Zed reads it.
type ToolCallLocation struct {
	Path string         `json:"path"`
	Line *int           `json:"line,omitempty"`
	Meta map[string]any `json:"_meta,omitempty"`
}

// ToolCall announces a tool call (a tool_call update). It is also what a
// permission request describes (RequestPermissionRequest.ToolCall), where
// every field but ToolCallID is optional and Status is normally empty.
// RawInput and RawOutput go on the wire verbatim.
type ToolCall struct {
	ToolCallID string
	Title      string
	Kind       ToolKind
	Status     ToolCallStatus
	Name       string
	RawInput   json.RawMessage
	RawOutput  json.RawMessage
	Locations  []ToolCallLocation
	Content    []ToolCallContent
	Meta       *ToolCallMeta
}

// ToolCallMeta is a tool call's _meta: Zed's display-only terminal
// convention, announced with the call.
type ToolCallMeta struct {
	TerminalInfo *TerminalInfo `json:"terminal_info,omitempty"`
}

// TerminalInfo opens a display-only terminal for the call (Zed's
// _meta.terminal_info); the card's terminal content refers to it by id.
type TerminalInfo struct {
	TerminalID string `json:"terminal_id"`
	Cwd        string `json:"cwd,omitempty"`
}

// ToolCallUpdate changes a call the client already shows (a
// tool_call_update). Empty fields are left as they are, except Content: a
// nil Content leaves the client's content alone, an empty non-nil one
// clears it.
type ToolCallUpdate struct {
	ToolCallID string
	Status     ToolCallStatus
	Content    []ToolCallContent
	Title      string
	Kind       ToolKind
	Name       string
	Locations  []ToolCallLocation
	RawInput   json.RawMessage
	RawOutput  json.RawMessage
	Meta       *ToolCallUpdateMeta
}

// ToolCallUpdateMeta is a tool call update's _meta: Zed's display-only
// terminal convention, output appended to the terminal and its exit.
type ToolCallUpdateMeta struct {
	TerminalOutput *TerminalOutput `json:"terminal_output,omitempty"`
	TerminalExit   *TerminalExit   `json:"terminal_exit,omitempty"`
	// SubagentSessionID links a task's call to the child session it
	// started (announced with a SubagentUpdate).
	SubagentSessionID string `json:"subagent_session_id,omitempty"`
	// Own holds dsh-acp's own members, under the "dsh-acp" key.
	Own *OwnUpdateMeta `json:"dsh-acp,omitempty"`
}

// OwnUpdateMeta is what dsh-acp itself says of a call in an update's
// _meta (under "dsh-acp"); a client that does not know it reads the
// update's status and content alone.
type OwnUpdateMeta struct {
	// Stopped marks the final update of a call the turn's cancel stopped,
	// while it ran or before it started. Its status is failed, since the
	// protocol has no status for it.
	Stopped bool `json:"stopped,omitempty"`
}

// TerminalOutput appends Data to the call's terminal.
type TerminalOutput struct {
	TerminalID string `json:"terminal_id"`
	Data       string `json:"data"`
}

// TerminalExit ends the call's terminal: an exit code, or the signal that
// ended the command.
type TerminalExit struct {
	TerminalID string `json:"terminal_id"`
	ExitCode   *int   `json:"exit_code,omitempty"`
	Signal     string `json:"signal,omitempty"`
}

// ToolCallContent is what a tool call card shows: ContentItem, Diff or
// Terminal. The set is closed; each writes its own "type" discriminator.
type ToolCallContent interface {
	// toolContentWire returns the item's wire form, its "type" set.
	toolContentWire() (any, error)
}

// ContentItem is a content block shown in a call card.
type ContentItem struct {
	Content ContentBlock
	Meta    map[string]any
}

type contentItemWire struct {
	Type    string         `json:"type"`
	Content any            `json:"content"`
	Meta    map[string]any `json:"_meta,omitempty"`
}

func (c ContentItem) toolContentWire() (any, error) {
	block, err := contentWire(c.Content)
	if err != nil {
		return nil, err
	}
	return contentItemWire{Type: "content", Content: block, Meta: c.Meta}, nil
}

// Diff shows a file change; a nil OldText is a new file.
type Diff struct {
	Path    string
	OldText *string
	NewText string
	Meta    map[string]any
}

type diffWire struct {
	Type    string         `json:"type"`
	Path    string         `json:"path"`
	OldText *string        `json:"oldText"`
	NewText string         `json:"newText"`
	Meta    map[string]any `json:"_meta,omitempty"`
}

func (d Diff) toolContentWire() (any, error) {
	return diffWire{Type: "diff", Path: d.Path, OldText: d.OldText, NewText: d.NewText, Meta: d.Meta}, nil
}

// Terminal embeds a terminal in the card by id.
type Terminal struct {
	TerminalID string
	Meta       map[string]any
}

type terminalWire struct {
	Type       string         `json:"type"`
	TerminalID string         `json:"terminalId"`
	Meta       map[string]any `json:"_meta,omitempty"`
}

func (t Terminal) toolContentWire() (any, error) {
	return terminalWire{Type: "terminal", TerminalID: t.TerminalID, Meta: t.Meta}, nil
}

// toolContentsWire converts a card's content, keeping nil nil and empty
// empty.
func toolContentsWire(in []ToolCallContent) ([]any, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]any, len(in))
	for i, c := range in {
		if c == nil {
			return nil, errNilVariant("tool call content")
		}
		w, err := c.toolContentWire()
		if err != nil {
			return nil, err
		}
		out[i] = w
	}
	return out, nil
}

type toolCallWire struct {
	SessionUpdate string             `json:"sessionUpdate"`
	ToolCallID    string             `json:"toolCallId"`
	Title         string             `json:"title"`
	Kind          ToolKind           `json:"kind,omitempty"`
	Status        ToolCallStatus     `json:"status,omitempty"`
	Name          string             `json:"name,omitempty"`
	RawInput      json.RawMessage    `json:"rawInput,omitempty"`
	RawOutput     json.RawMessage    `json:"rawOutput,omitempty"`
	Locations     []ToolCallLocation `json:"locations,omitempty"`
	Content       []any              `json:"content,omitempty"`
	Meta          *ToolCallMeta      `json:"_meta,omitempty"`
}

func (c ToolCall) wire() (any, error) {
	content, err := toolContentsWire(c.Content)
	if err != nil {
		return nil, err
	}
	return toolCallWire{
		SessionUpdate: "tool_call", ToolCallID: c.ToolCallID, Title: c.Title, Kind: c.Kind, Status: c.Status,
		Name: c.Name, RawInput: c.RawInput, RawOutput: c.RawOutput, Locations: c.Locations, Content: content, Meta: c.Meta,
	}, nil
}

// toolCallBodyWire is a ToolCall as a permission request's toolCall (the
// schema's ToolCallUpdate): no discriminator, every field but the id
// optional.
type toolCallBodyWire struct {
	ToolCallID string             `json:"toolCallId"`
	Title      string             `json:"title,omitempty"`
	Kind       ToolKind           `json:"kind,omitempty"`
	Status     ToolCallStatus     `json:"status,omitempty"`
	Name       string             `json:"name,omitempty"`
	RawInput   json.RawMessage    `json:"rawInput,omitempty"`
	RawOutput  json.RawMessage    `json:"rawOutput,omitempty"`
	Locations  []ToolCallLocation `json:"locations,omitempty"`
	Content    []any              `json:"content,omitempty"`
	Meta       *ToolCallMeta      `json:"_meta,omitempty"`
}

func (c ToolCall) bodyWire() (toolCallBodyWire, error) {
	content, err := toolContentsWire(c.Content)
	if err != nil {
		return toolCallBodyWire{}, err
	}
	return toolCallBodyWire{
		ToolCallID: c.ToolCallID, Title: c.Title, Kind: c.Kind, Status: c.Status, Name: c.Name,
		RawInput: c.RawInput, RawOutput: c.RawOutput, Locations: c.Locations, Content: content, Meta: c.Meta,
	}, nil
}

type toolCallUpdateWire struct {
	SessionUpdate string              `json:"sessionUpdate"`
	ToolCallID    string              `json:"toolCallId"`
	Status        ToolCallStatus      `json:"status,omitempty"`
	Content       []any               `json:"content,omitzero"`
	Title         string              `json:"title,omitempty"`
	Kind          ToolKind            `json:"kind,omitempty"`
	Name          string              `json:"name,omitempty"`
	Locations     []ToolCallLocation  `json:"locations,omitempty"`
	RawInput      json.RawMessage     `json:"rawInput,omitempty"`
	RawOutput     json.RawMessage     `json:"rawOutput,omitempty"`
	Meta          *ToolCallUpdateMeta `json:"_meta,omitempty"`
}

func (u ToolCallUpdate) wire() (any, error) {
	content, err := toolContentsWire(u.Content)
	if err != nil {
		return nil, err
	}
	return toolCallUpdateWire{
		SessionUpdate: "tool_call_update", ToolCallID: u.ToolCallID, Status: u.Status, Content: content,
		Title: u.Title, Kind: u.Kind, Name: u.Name, Locations: u.Locations, RawInput: u.RawInput,
		RawOutput: u.RawOutput, Meta: u.Meta,
	}, nil
}
