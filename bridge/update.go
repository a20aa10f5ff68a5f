package bridge

import "encoding/json"

// The session/update payloads the bridge emits. They are local types so
// that key order follows the field order (the editor's snapshots compare
// bytes) and so they carry what the SDK types lack: Zed's terminal _meta
// convention and a tool_call_update that leaves content out.

// sessionNotification is the params of session/update.
type sessionNotification struct {
	SessionID string `json:"sessionId"`
	Update    any    `json:"update"`
}

// textBlock is an ACP text content block.
type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func text(s string) textBlock { return textBlock{Type: "text", Text: s} }

// chunkUpdate is agent_message_chunk, agent_thought_chunk or
// user_message_chunk.
type chunkUpdate struct {
	SessionUpdate string    `json:"sessionUpdate"`
	Content       textBlock `json:"content"`
}

// location is a followable place; Line is 0-based as Zed reads it.
type location struct {
	Path string `json:"path"`
	Line *int   `json:"line,omitempty"`
}

// contentItem is ToolCallContent {type:"content"}.
type contentItem struct {
	Type    string    `json:"type"`
	Content textBlock `json:"content"`
}

// diffItem is ToolCallContent {type:"diff"}; OldText null means a new file.
type diffItem struct {
	Type    string  `json:"type"`
	Path    string  `json:"path"`
	OldText *string `json:"oldText"`
	NewText string  `json:"newText"`
}

// terminalItem is ToolCallContent {type:"terminal"}.
type terminalItem struct {
	Type       string `json:"type"`
	TerminalID string `json:"terminalId"`
}

// terminalInfo, terminalOutput and terminalExit are Zed's display-only
// terminal convention, carried in _meta.
type terminalInfo struct {
	TerminalID string `json:"terminal_id"`
	Cwd        string `json:"cwd,omitempty"`
}

type terminalOutput struct {
	TerminalID string `json:"terminal_id"`
	Data       string `json:"data"`
}

type terminalExit struct {
	TerminalID string `json:"terminal_id"`
	ExitCode   *int   `json:"exit_code,omitempty"`
	Signal     string `json:"signal,omitempty"`
}

type toolCallMeta struct {
	TerminalInfo *terminalInfo `json:"terminal_info,omitempty"`
}

type toolUpdateMeta struct {
	TerminalOutput *terminalOutput `json:"terminal_output,omitempty"`
	TerminalExit   *terminalExit   `json:"terminal_exit,omitempty"`
}

// toolCallUpdate is the tool_call announcement.
type toolCall struct {
	SessionUpdate string          `json:"sessionUpdate"`
	ToolCallID    string          `json:"toolCallId"`
	Title         string          `json:"title"`
	Kind          string          `json:"kind"`
	Status        string          `json:"status"`
	RawInput      json.RawMessage `json:"rawInput,omitempty"`
	Locations     []location      `json:"locations,omitempty"`
	Content       []any           `json:"content,omitempty"`
	Meta          *toolCallMeta   `json:"_meta,omitempty"`
}

// toolCallUpdate changes a call the editor already shows. A nil Content
// leaves the editor's content alone; an empty one clears it.
type toolCallUpdate struct {
	SessionUpdate string          `json:"sessionUpdate"`
	ToolCallID    string          `json:"toolCallId"`
	Status        string          `json:"status,omitempty"`
	Content       []any           `json:"content,omitzero"`
	Title         string          `json:"title,omitempty"`
	Meta          *toolUpdateMeta `json:"_meta,omitempty"`
}

// planUpdate replaces the editor's plan.
type planUpdate struct {
	SessionUpdate string      `json:"sessionUpdate"`
	Entries       []planEntry `json:"entries"`
}

type planEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// usageUpdate reports the context window's use.
type usageUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	Used          int64  `json:"used"`
	Size          int64  `json:"size"`
}
