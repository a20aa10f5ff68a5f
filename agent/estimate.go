package agent

import (
	"slices"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// How text is counted in tokens when no server has counted it: a token is
// about four bytes, and each message and tool schema costs a few tokens of
// framing (role, separators) besides its text.
const (
	bytesPerToken   = 4
	messageOverhead = 4
	toolOverhead    = 4
)

// textTokens estimates the tokens of n bytes of text: n/4, rounded up.
func textTokens(n int) int64 {
	return int64((n + bytesPerToken - 1) / bytesPerToken)
}

// messageTokens estimates the tokens m takes in a request: its framing,
// its text and reasoning, and each tool call's id, name and arguments or
// the id of the call it answers.
func messageTokens(m llm.Message) int64 {
	n := len(m.Content) + len(m.Reasoning) + len(m.ToolCallID)
	for _, c := range m.ToolCalls {
		n += len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	return messageOverhead + textTokens(n)
}

// messagesTokens is the sum of messageTokens over msgs.
func messagesTokens(msgs []llm.Message) int64 {
	var n int64
	for _, m := range msgs {
		n += messageTokens(m)
	}
	return n
}

// toolsTokens estimates the tokens the tool schemas take: each one's
// framing, name, description and parameter schema.
func toolsTokens(tools []llm.Tool) int64 {
	var n int64
	for _, t := range tools {
		n += toolOverhead + textTokens(len(t.Name)+len(t.Description)+len(t.Parameters))
	}
	return n
}

// requestTokens estimates the prompt tokens of a request with system,
// tools and msgs, counting everything from its text.
func requestTokens(system string, tools []llm.Tool, msgs []llm.Message) int64 {
	return textTokens(len(system)) + toolsTokens(tools) + messagesTokens(msgs)
}

// conversationTokens is messagesTokens(history(events)), counted from the
// events without building the messages.
func conversationTokens(events []session.Event) int64 {
	var n int64
	if c, rest, ok := latestCompaction(events); ok {
		n += messageOverhead + textTokens(len(summaryLabel)+len(c.Summary))
		events = rest
	}
	var open []string // as in history: calls not answered yet
	answerOpen := func() {
		for _, id := range open {
			n += messageOverhead + textTokens(len(id)+len(interruptedCall))
		}
		open = nil
	}
	for _, ev := range events {
		switch p := ev.Payload.(type) {
		case session.UserMessage, session.ContextMessage:
			answerOpen()
		case session.AssistantMessage:
			answerOpen()
			for _, c := range p.ToolCalls {
				open = append(open, c.ID)
			}
		case session.ToolResult:
			if i := slices.Index(open, p.CallID); i >= 0 {
				open = slices.Delete(open, i, i+1)
			}
		}
		if size, ok := messageBytes(ev.Payload); ok {
			n += messageOverhead + textTokens(size)
		}
	}
	answerOpen()
	return n
}

// messageBytes is the size messageTokens counts in the message history
// makes of p; ok is false when history makes none.
func messageBytes(p session.Payload) (size int, ok bool) {
	switch p := p.(type) {
	case session.UserMessage:
		return joinedLen(p.Content), true
	case session.AssistantMessage:
		size = len(p.Text) + len(p.Reasoning)
		for _, c := range p.ToolCalls {
			size += len(c.ID) + len(c.Name) + len(c.Arguments)
		}
		return size, true
	case session.ToolResult:
		return len(p.CallID) + joinedLen(p.Content), true
	case session.ContextMessage:
		return joinedLen(p.Message.Content), true
	}
	return 0, false
}

// joinedLen is len(presentation.JoinText(blocks)), without joining them.
func joinedLen(blocks []presentation.ContentBlock) int {
	n := max(len(blocks)-1, 0)
	for _, b := range blocks {
		if t, ok := b.(presentation.TextBlock); ok {
			n += len(t.Text)
		} else {
			n += len("[ content]") + len(b.BlockType())
		}
	}
	return n
}

// promptEstimate estimates the prompt tokens of the next request over the
// logged conversation, with system and tools. When the server counted the
// prompt of a request since the latest compaction, the estimate is that
// count plus the text the conversation gained after that request;
// otherwise everything is counted from its text.
func promptEstimate(events []session.Event, system string, tools []llm.Tool) int64 {
	u, at := anchorUsage(events)
	if at < 0 {
		return textTokens(len(system)) + toolsTokens(tools) + conversationTokens(events)
	}
	return u.PromptTokens + conversationTokens(events[at+1:])
}

// anchorUsage returns the latest usage a model step reported after the
// latest compaction, and its index in events (-1 when there is none). Only
// a report the step's AssistantMessage follows counts: a summary request's
// report, or that of a step that failed, describes a prompt other than the
// conversation's.
func anchorUsage(events []session.Event) (session.Usage, int) {
	var anchor session.Usage
	at, pending := -1, -1
	for i, ev := range events {
		switch p := ev.Payload.(type) {
		case session.Usage:
			if p.PromptTokens > 0 {
				pending = i
			}
		case session.AssistantMessage:
			if pending >= 0 {
				anchor, at, pending = events[pending].Payload.(session.Usage), pending, -1
			}
		case session.Compacted:
			anchor, at, pending = session.Usage{}, -1, -1
		case session.TurnStarted, session.TurnEnded:
			pending = -1
		}
	}
	return anchor, at
}
