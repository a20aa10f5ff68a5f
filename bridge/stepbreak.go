package bridge

import (
	"strings"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/session"
)

// stepBreak ends the agent's text with a paragraph break before a tool
// call. Clients that join the text of a turn's steps into one string (the
// AI SDK provider) would otherwise read "I wrote the file.All done";
// clients that render each message apart trim the trailing blank line.
// It works on updates, after the mapping, so live streaming and replay
// add the same breaks. The zero value has nothing to end.
type stepBreak struct {
	// missing is how many newlines the agent's text shown since the last
	// tool call lacks to end with a paragraph break (0, 1 or 2).
	missing int
}

// separate returns the updates of ev, after a paragraph break when ev is
// a model's tool call that follows text not ending with one. The cards
// the session makes itself (an undo, a compaction) are no step of the
// model's and get none.
func (b *stepBreak) separate(ev session.Event, updates []acp.Update) []acp.Update {
	switch ev.Payload.(type) {
	case session.UserMessage, session.TurnStarted, session.CommandRan, session.Rewound:
		// A new turn: the previous one's text was a whole answer.
		b.missing = 0
	case session.ToolCall:
		if b.missing > 0 {
			brk := acp.AgentMessageChunk{Content: acp.Text(strings.Repeat("\n", b.missing))}
			updates = append([]acp.Update{brk}, updates...)
			b.missing = 0
		}
		return updates
	}
	for _, u := range updates {
		if v, ok := u.(acp.AgentMessageChunk); ok {
			if t, ok := v.Content.(acp.TextContent); ok && t.Text != "" {
				b.missing = 2 - min(2, trailingNewlines(t.Text))
			}
		}
	}
	return updates
}

// trailingNewlines counts the newlines s ends with, "\r\n" as one.
func trailingNewlines(s string) int {
	n := 0
	for {
		switch {
		case strings.HasSuffix(s, "\r\n"):
			s = s[:len(s)-2]
		case strings.HasSuffix(s, "\n"):
			s = s[:len(s)-1]
		default:
			return n
		}
		n++
	}
}
