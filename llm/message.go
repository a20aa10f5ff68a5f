package llm

// Role says who produced a [Message].
type Role string

// The roles of a conversation. The system prompt is not a message; it is
// [Request.System].
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of the conversation.
//
// Which fields are meaningful depends on Role: a user message has Content; an
// assistant message has Content, Reasoning and ToolCalls; a tool message has
// ToolCallID and Content (the tool result as text).
type Message struct {
	Role       Role
	Content    string
	Reasoning  string
	ToolCalls  []ToolCall
	ToolCallID string
}

// ToolCall is one function call requested by the model.
type ToolCall struct {
	// ID identifies the call; the matching tool result cites it.
	ID string
	// Name is the tool name as the model wrote it.
	Name string
	// Arguments is the raw argument text exactly as the model produced it.
	// It is usually a JSON object but is not validated here: it may be empty
	// or malformed, and the caller decides what to do with that.
	Arguments string
}

// UserMessage returns a user message with the given text.
func UserMessage(text string) Message {
	return Message{Role: RoleUser, Content: text}
}

// ToolResultMessage returns the tool message answering the call callID.
func ToolResultMessage(callID, content string) Message {
	return Message{Role: RoleTool, ToolCallID: callID, Content: content}
}
