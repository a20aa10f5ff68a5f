package agent

import (
	"fmt"
	"slices"
	"sort"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// summaryLabel opens the user message that gives the model the summary of
// the compacted conversation.
const summaryLabel = "[Summary of the earlier conversation]\n" +
	"The conversation before this point grew too long for the context window and was replaced by this summary, " +
	"written for you when it was compacted. The turns after it are shown in full. Continue the work from here.\n\n"

// history rebuilds the model's conversation from the log: user prompts,
// assistant messages with their tool calls, each call's result, and the
// contexts handed over after a batch. After a compaction it starts with a
// user message holding the latest summary, followed by only the events
// after those the summary covers.
func history(events []session.Event) []llm.Message {
	var msgs []llm.Message
	if c, rest, ok := latestCompaction(events); ok {
		msgs = append(msgs, llm.UserMessage(summaryLabel+c.Summary))
		events = rest
	}
	var open []string // calls of the last assistant message without a result yet
	answerOpen := func() {
		for _, id := range open {
			msgs = append(msgs, llm.ToolResultMessage(id, interruptedCall))
		}
		open = nil
	}
	for _, ev := range events {
		switch p := ev.Payload.(type) {
		case session.UserMessage:
			answerOpen()
			msgs = append(msgs, llm.UserMessage(presentation.JoinText(p.Content)))
		case session.AssistantMessage:
			answerOpen()
			m := llm.Message{Role: llm.RoleAssistant, Content: p.Text, Reasoning: p.Reasoning}
			for _, c := range p.ToolCalls {
				m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
				open = append(open, c.ID)
			}
			msgs = append(msgs, m)
		case session.ToolResult:
			if i := slices.Index(open, p.CallID); i >= 0 {
				open = slices.Delete(open, i, i+1)
			}
			msgs = append(msgs, llm.ToolResultMessage(p.CallID, presentation.JoinText(p.Content)))
		case session.ContextMessage:
			answerOpen()
			msgs = append(msgs, llm.UserMessage(presentation.JoinText(p.Message.Content)))
		}
	}
	answerOpen()
	return msgs
}

// interruptedCall answers, in the model's history, a tool call whose
// result never reached the log: the process ended while it ran (a crash,
// a kill), and the stored session was loaded again. Every call the model
// made is answered, as the model servers require.
const interruptedCall = "The tool call was interrupted: the agent stopped before it finished, and its effects, if any, are unknown. Check before relying on them."

// latestCompaction returns the latest Compacted event of events and the
// events after those it summarises; ok is false when there is none.
func latestCompaction(events []session.Event) (c session.Compacted, rest []session.Event, ok bool) {
	for i := len(events) - 1; i >= 0; i-- {
		if c, ok := events[i].Payload.(session.Compacted); ok {
			from := sort.Search(len(events), func(j int) bool { return events[j].Seq > c.Through })
			return c, events[from:], true
		}
	}
	return session.Compacted{}, events, false
}

// toolCalls turns the model's calls into the log's, giving an id to any
// call that came without one.
func toolCalls(calls []llm.ToolCall, turn, request int) []session.ToolCallRef {
	out := make([]session.ToolCallRef, len(calls))
	for i, c := range calls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_t%d_r%d_%d", turn, request, i)
		}
		out[i] = session.ToolCallRef{ID: id, Name: c.Name, Arguments: c.Arguments}
	}
	return out
}
