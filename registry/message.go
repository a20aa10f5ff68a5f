package registry

import "github.com/dsh-acp/dsh-acp/presentation"

// MessageSource says who added a context message: the user, or a named
// plugin.
type MessageSource struct {
	// Kind is "user" or "plugin".
	Kind string
	// Plugin names the plugin when Kind is "plugin".
	Plugin string
}

// ContextMessage is extra context a tool call hands to the model after the
// batch's results, such as a reminder a policy attaches.
type ContextMessage struct {
	Content []presentation.ContentBlock
	Source  MessageSource
}

// UserContext returns a ContextMessage from the user holding text.
func UserContext(text string) ContextMessage {
	return ContextMessage{
		Content: []presentation.ContentBlock{presentation.Text(text)},
		Source:  MessageSource{Kind: "user"},
	}
}

// Clone returns a copy of m sharing no slice with it.
func (m ContextMessage) Clone() ContextMessage {
	m.Content = presentation.CloneContent(m.Content)
	return m
}

// CloneContexts returns a deep copy of messages (nil stays nil).
func CloneContexts(messages []ContextMessage) []ContextMessage {
	if messages == nil {
		return nil
	}
	out := make([]ContextMessage, len(messages))
	for i, m := range messages {
		out[i] = m.Clone()
	}
	return out
}
