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
// after those the summary covers. Images in user prompts are shown as
// placeholders; requestHistory is what a request carries.
func history(events []session.Event) []llm.Message {
	return conversation(events, placeholderPrompt)
}

// requestHistory is history as a request to m carries it: a user prompt
// that holds images sends them as image parts when m takes images, and
// has a note where each image was otherwise.
func requestHistory(events []session.Event, m ModelInfo) []llm.Message {
	return conversation(events, m.prompt)
}

// conversation is history with each user prompt made into a message by
// prompt.
func conversation(events []session.Event, prompt func([]presentation.ContentBlock) llm.Message) []llm.Message {
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
			msgs = append(msgs, prompt(p.Content))
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

// placeholderPrompt is the user message of a prompt as text, each block
// that is not text shown as "[<type> content]".
func placeholderPrompt(content []presentation.ContentBlock) llm.Message {
	return llm.UserMessage(presentation.JoinText(content))
}

// prompt is the user message of a prompt as a request to m carries it.
// Without images it is placeholderPrompt's. With images, a model that
// takes them gets the prompt as parts in order (Content keeps the
// placeholder text, for counting); one that does not gets the text with
// omittedImage's note in place of each image.
func (m ModelInfo) prompt(content []presentation.ContentBlock) llm.Message {
	msg := placeholderPrompt(content)
	if !hasImage(content) {
		return msg
	}
	if !m.Images {
		noted := make([]presentation.ContentBlock, len(content))
		for i, b := range content {
			if _, ok := b.(presentation.ImageBlock); ok {
				b = presentation.Text(m.omittedImage())
			}
			noted[i] = b
		}
		return placeholderPrompt(noted)
	}
	for _, b := range content {
		switch b := b.(type) {
		case presentation.TextBlock:
			msg.Parts = append(msg.Parts, llm.TextPart(b.Text))
		case presentation.ImageBlock:
			msg.Parts = append(msg.Parts, llm.ImagePart(b.MimeType, b.Data))
		default:
			msg.Parts = append(msg.Parts, llm.TextPart("["+b.BlockType()+" content]"))
		}
	}
	return msg
}

// omittedImage is the note a model that takes no images reads where an
// image of the prompt was.
func (m ModelInfo) omittedImage() string {
	return "[image omitted: " + m.modelName() + " does not accept images; configure images = true for it]"
}

// omittedImages returns the message the user is shown, once per turn,
// when the prompt's images do not reach m because m takes none; ok is
// false when there is nothing to say.
func omittedImages(content []presentation.ContentBlock, m ModelInfo) (note string, ok bool) {
	if m.Images {
		return "", false
	}
	n := 0
	for _, b := range content {
		if _, isImage := b.(presentation.ImageBlock); isImage {
			n++
		}
	}
	switch n {
	case 0:
		return "", false
	case 1:
		return "The image in this prompt was not sent: " + m.modelName() + " does not accept images. Configure images = true for the model if it does.", true
	default:
		return fmt.Sprintf("The %d images in this prompt were not sent: %s does not accept images. Configure images = true for the model if it does.", n, m.modelName()), true
	}
}

// modelName names m in notes: "model <name>", or "the model" when its
// name is unknown.
func (m ModelInfo) modelName() string {
	if m.Name == "" {
		return "the model"
	}
	return "model " + m.Name
}

// hasImage reports whether content holds an image.
func hasImage(content []presentation.ContentBlock) bool {
	return slices.ContainsFunc(content, func(b presentation.ContentBlock) bool {
		_, ok := b.(presentation.ImageBlock)
		return ok
	})
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
