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
// Which fields are meaningful depends on Role: a user message has Content,
// and Parts when it holds images; an assistant message has Content,
// Reasoning and ToolCalls; a tool message has ToolCallID and Content (the
// tool result as text).
type Message struct {
	Role    Role
	Content string
	// Parts, when not empty, is a user message's content as text and image
	// parts in order, and is what is sent instead of Content. Content then
	// holds the same text with a placeholder for each image, for whoever
	// counts or shows the message as text.
	Parts      []Part
	Reasoning  string
	ToolCalls  []ToolCall
	ToolCallID string
}

// Part is one piece of a user message's content: text, or an image when
// Image is set.
type Part struct {
	Text  string
	Image *Image
}

// Image is an image sent inline: its MIME type (image/png, image/jpeg …)
// and its bytes, base64-encoded (standard encoding, padded).
type Image struct {
	MimeType string
	Data     string
}

// TextPart returns a text part holding s.
func TextPart(s string) Part { return Part{Text: s} }

// ImagePart returns an image part of the given MIME type and base64 data.
func ImagePart(mimeType, data string) Part {
	return Part{Image: &Image{MimeType: mimeType, Data: data}}
}

// DataURL returns the image as a data URL, data:<mime>;base64,<data>, the
// form OpenAI-compatible servers take inline images in.
func (i Image) DataURL() string {
	return "data:" + i.MimeType + ";base64," + i.Data
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
