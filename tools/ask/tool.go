package ask

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// Name is the tool's model-facing name.
const Name = "ask_user"

const description = `Ask the user one to four questions and wait for the answers. Use it when the request is ambiguous or a decision is the user's to make (which approach, which of several files, whether to go on with something risky) and you cannot find the answer yourself; never ask what reading the code would tell you, and ask everything you need in one call.

Arguments: questions, 1 to 4 items, each {question: the complete question as the user will read it; options?: 2 to 10 short distinct choices; multiple?: true when several options may be picked (needs options)}. The user may answer a question with options in their own words instead.

Result: each question with the user's answer. If the user declines, the result says so: go on with the most reasonable assumption and say which, or end your turn. If this editor cannot ask, the result says so: end your turn and ask the question in your answer instead. Errors: INVALID_ARGS when there are no questions or more than 4, a question is empty, or options are empty, repeated, fewer than 2 or more than 10, or multiple is set without options.`

// Tool returns the ask_user tool, asking through asker.
func Tool(asker Asker) (*registry.Tool, error) {
	if asker == nil {
		return nil, fmt.Errorf("define tool %q: an Asker is required", Name)
	}
	return registry.Define(registry.Spec[Args, Reply]{
		Name:        Name,
		Description: description,
		// It touches nothing but the user's attention, and asks by itself:
		// every preset lets it run. One form at a time: it runs alone.
		Effect: registry.EffectOther,
		Handler: func(ctx context.Context, call *registry.Call, args Args) (Reply, error) {
			if err := checkArgs(args); err != nil {
				return Reply{}, err
			}
			reply, err := asker.Ask(ctx, Request{CallID: call.ID(), Arguments: call.Arguments().JSON(), Questions: args.Questions})
			if err != nil {
				return Reply{}, fmt.Errorf("asking the user: %w", err)
			}
			if reply.Outcome == Answered && len(reply.Answers) != len(args.Questions) {
				return Reply{}, fmt.Errorf("asking the user: %d answers to %d questions", len(reply.Answers), len(args.Questions))
			}
			return reply, nil
		},
		Render: func(args Args, reply Reply) ([]presentation.ContentBlock, error) {
			return []presentation.ContentBlock{presentation.Text(render(args.Questions, reply))}, nil
		},
		PresentCall: presentCall,
	})
}

// render is what the model reads back.
func render(questions []Question, reply Reply) string {
	var b strings.Builder
	switch reply.Outcome {
	case Declined:
		b.WriteString("The user declined to answer. Do not ask the same again: go on with the most reasonable assumption and say which you made, or end your turn.")
	case Unavailable:
		b.WriteString("This editor cannot show questions to the user. End your turn now and ask in your answer instead (with the choices, if any); the user's next message will answer.")
	default:
		b.WriteString("The user answered:")
		for i, q := range questions {
			fmt.Fprintf(&b, "\n%d. %s\n   Answer: %s", i+1, q.Question, reply.Answers[i].text())
		}
	}
	if reply.Note != "" {
		b.WriteString("\n" + reply.Note)
	}
	return b.String()
}

// text is the answer as the model reads it.
func (a Answer) text() string {
	picked := strings.Join(a.Selected, "; ")
	typed := strings.TrimSpace(a.Text)
	switch {
	case picked != "" && typed != "":
		return picked + " (and wrote: " + typed + ")"
	case picked != "":
		return picked
	case typed != "":
		return typed
	}
	return "(no answer)"
}

// titleRunes bounds the card's title.
const titleRunes = 120

// presentCall shows the call as the question it asks (the first, and how
// many more), the questions and their options in its content.
func presentCall(args Args) presentation.CallView {
	view := presentation.GenericCallView{Title: title(args.Questions), Kind: presentation.KindThink}
	if len(args.Questions) > 1 || len(args.Questions) == 1 && len(args.Questions[0].Options) > 0 {
		view.Content = []presentation.ContentBlock{presentation.Text(listing(args.Questions))}
	}
	return view
}

// Title is the title of the call's card: its first question on one line
// (cut at 120 characters), and how many more there are.
func (r Request) Title() string { return title(r.Questions) }

// title is the card's title for questions.
func title(questions []Question) string {
	if len(questions) == 0 {
		return "Ask the user"
	}
	t := strings.Join(strings.Fields(questions[0].Question), " ")
	if t == "" {
		t = "Ask the user"
	}
	t = truncate(t, titleRunes)
	if more := len(questions) - 1; more > 0 {
		t += fmt.Sprintf(" (+%d more)", more)
	}
	return t
}

// listing is the questions with their options, as Markdown.
func listing(questions []Question) string {
	var b strings.Builder
	for i, q := range questions {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d. %s", i+1, q.Question)
		if q.Multiple {
			b.WriteString(" (any of)")
		}
		for _, o := range q.Options {
			b.WriteString("\n   - " + o)
		}
	}
	return b.String()
}

// truncate cuts s to at most n runes, marking the cut with "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return string(runes[:n-1]) + "…"
}
