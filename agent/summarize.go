package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// summarySystem is the system prompt of a summary request.
const summarySystem = `You write the working memory of a coding agent. The conversation between a user and the agent has grown too long for the model's context window. Your summary replaces the part of it you are shown: the agent will continue the work from your summary and the most recent turns alone, so everything it still needs must be in the summary.

Write the summary in Markdown with these sections, leaving out a section only when it would be empty:

## Goals
What the user asked for and still wants, with their requirements and preferences; quote their words where the wording matters.
## Decisions
What was decided and why, including approaches that were tried and rejected, and anything the user refused.
## Files
Every file read, created, changed or deleted, by its exact path, with what was learned from it or done to it.
## Commands
Commands that matter (builds, tests, installs) and their outcome.
## Open work
What is done, what is in progress, what is left to do, and errors not yet fixed.
## Identifiers
Exact names the work depends on: paths, functions, types, variables, commands, error messages, URLs, versions, values.

Copy identifiers, paths and error messages exactly. State facts; do not guess or invent. When an earlier summary is given, keep what it says that still holds and merge the new turns into it. Write only the summary: no greeting, no questions, no offer of further help.`

// Transcript limits: a tool's result or output, or a call's arguments,
// longer than entryCap bytes is cut in the middle; a single turn is cut to
// what the summary request has room for, but never below
// minTranscriptTokens.
const (
	entryCap            = 4 << 10
	minTranscriptTokens = 1024
)

// summaryInput is the user message of a summary request: the earlier
// summary, when there is one, and the transcript of the turns to add.
func summaryInput(prev, transcript string) string {
	var b strings.Builder
	if prev != "" {
		b.WriteString("# Earlier summary\n\n")
		b.WriteString(prev)
		b.WriteString("\n\n")
	}
	b.WriteString("# Conversation to summarize\n\n")
	b.WriteString(transcript)
	b.WriteString("\n# Task\n\nWrite the summary now, following your instructions.\n")
	return b.String()
}

// transcriptTurn renders one turn as the summarizer reads it: the user's
// prompt, the agent's answers, each tool call with its arguments and
// result, contexts handed over, and how the turn ended when it did not end
// normally. Reasoning is left out.
func transcriptTurn(s span) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Turn %d\n\n", s.turn)
	names := map[string]string{}
	for _, ev := range s.events {
		switch p := ev.Payload.(type) {
		case session.UserMessage:
			fmt.Fprintf(&b, "User:\n%s\n\n", presentation.JoinText(p.Content))
		case session.AssistantMessage:
			if p.Text != "" {
				fmt.Fprintf(&b, "Agent:\n%s\n\n", p.Text)
			}
			for _, c := range p.ToolCalls {
				names[c.ID] = c.Name
				fmt.Fprintf(&b, "Agent called %s %s\n\n", c.Name, cutMiddle(c.Arguments, entryCap, "of the arguments"))
			}
		case session.ToolResult:
			status := "result"
			if p.IsError {
				status = "failed"
				if p.Code != "" {
					status += " (" + p.Code + ")"
				}
			}
			name := names[p.CallID]
			if name == "" {
				name = "call " + p.CallID
			}
			fmt.Fprintf(&b, "%s %s:\n%s\n\n", name, status, cutMiddle(presentation.JoinText(p.Content), entryCap, "of the result"))
		case session.ContextMessage:
			fmt.Fprintf(&b, "Context given to the agent:\n%s\n\n", cutMiddle(presentation.JoinText(p.Message.Content), entryCap, "of the context"))
		case session.TurnEnded:
			switch {
			case p.Reason == session.StopCancelled:
				b.WriteString("(The user cancelled the turn here.)\n\n")
			case p.Error != "":
				fmt.Fprintf(&b, "(The turn failed: %s)\n\n", p.Error)
			case p.Reason != session.StopEndTurn:
				fmt.Fprintf(&b, "(The turn stopped: %s)\n\n", p.Reason)
			}
		}
	}
	return b.String()
}

// cutMiddle returns s when it is at most limit bytes long; otherwise its
// head and tail, cut at rune boundaries, around a note saying how many
// bytes of what were left out.
func cutMiddle(s string, limit int, what string) string {
	if len(s) <= limit {
		return s
	}
	head, tail := limit/2, limit/4
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	from := len(s) - tail
	for from < len(s) && !utf8.RuneStart(s[from]) {
		from++
	}
	return fmt.Sprintf("%s\n[… %d bytes %s left out …]\n%s", s[:head], from-head, what, s[from:])
}

// summaryTokens caps the length of a summary written by m: the completion
// reserve, and never more than maxSummaryTokens.
func (a *Agent) summaryTokens(m ModelInfo) int64 {
	return min(a.reserve(m), maxSummaryTokens)
}

// summarize asks m, without tools, for the summary c describes. The
// request's retries and usage are logged; its text is not shown. A summary
// cut at the length limit is kept, with a note saying so.
func (t *turn) summarize(ctx context.Context, m ModelInfo, c compaction) (string, error) {
	req := llm.Request{
		System:    summarySystem,
		Messages:  []llm.Message{llm.UserMessage(summaryInput(c.prev.Summary, c.transcript))},
		MaxTokens: int(t.agent.summaryTokens(m)),
	}
	stream, err := t.agent.opts.Provider.Stream(ctx, req)
	if err != nil {
		return "", err
	}
	resp, err := llm.Collect(stream, func(ev llm.Event) error {
		switch ev := ev.(type) {
		case llm.RetryNotice, llm.UsageReport:
			t.log.Append(stepEvent(ev, m))
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	summary := strings.TrimSpace(resp.Message.Content)
	switch {
	case resp.FinishReason == llm.FinishContentFilter:
		return "", errors.New("the model refused to write the summary")
	case summary == "":
		return "", errors.New("the model wrote an empty summary")
	case resp.FinishReason == llm.FinishLength:
		summary += "\n\n[This summary was cut off at the length limit.]"
	}
	return summary, nil
}
