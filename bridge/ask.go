package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/tools/ask"
)

// Ask implements ask.Asker: it puts the model's questions to the user in
// the editor's own form (elicitation/create) when the client shows forms;
// otherwise one question with options becomes a permission prompt whose
// options are the choices; any other questions cannot be asked here
// (ask.Unavailable). A cancelled turn, or a closed session, withdraws the
// form or prompt and returns ctx's error; the user's cancel ends the turn
// as session/cancel does.
func (s *liveSession) Ask(ctx context.Context, req ask.Request) (ask.Reply, error) {
	switch {
	case s.forms:
		return s.askByForm(ctx, req)
	case len(req.Questions) == 1 && len(req.Questions[0].Options) > 0:
		return s.askByPermission(ctx, req)
	default:
		return ask.Reply{Outcome: ask.Unavailable}, nil
	}
}

// A question's fields in the form: q<n> holds the answer (a text, or the
// choices), q<n>_own the words of a user who answers a question with
// options in their own.
func answerField(i int) string { return "q" + strconv.Itoa(i+1) }
func ownField(i int) string    { return answerField(i) + "_own" }

// askByForm asks through elicitation/create: one form, scoped to the
// call, with a field per question (a text, a choice, or several
// choices, each choice with a field for the user's own words beside it).
func (s *liveSession) askByForm(ctx context.Context, req ask.Request) (ask.Reply, error) {
	resp, err := s.client.CreateElicitation(ctx, askingForm(s.id, req))
	switch {
	case ctx.Err() != nil:
		return ask.Reply{}, fmt.Errorf("the question was withdrawn: %w", ctx.Err())
	case err != nil:
		return s.askFailed(err), nil
	}
	switch resp.Action {
	case acp.ElicitationAccept:
		return ask.Reply{Outcome: ask.Answered, Answers: formAnswers(req.Questions, resp)}, nil
	case acp.ElicitationCancel:
		s.cancel()
		return ask.Reply{}, ask.ErrCancelled
	case acp.ElicitationDecline:
		return ask.Reply{Outcome: ask.Declined}, nil
	default:
		return ask.Reply{Outcome: ask.Declined, Note: fmt.Sprintf("(The editor answered %q, which is no answer dsh-acp knows.)", escapeControls(string(resp.Action)))}, nil
	}
}

// askFailed is the reply when the editor failed to ask (an error, an
// answer that does not fit): the model asks in its answer instead.
func (s *liveSession) askFailed(err error) ask.Reply {
	s.bridge.opts.Logger.Warn("the editor did not put the questions to the user", "session", s.id, "err", err)
	return ask.Reply{Outcome: ask.Unavailable, Note: "(The editor failed to show the questions: " + escapeControls(err.Error()) + ")"}
}

// askingForm is the form for req's questions in session id.
func askingForm(id string, req ask.Request) acp.ElicitationForm {
	form := acp.ElicitationForm{SessionID: id, ToolCallID: req.CallID, Message: escapeControls(req.Questions[0].Question)}
	if n := len(req.Questions); n > 1 {
		form.Message = fmt.Sprintf("The agent has %d questions for you.", n)
	}
	for i, q := range req.Questions {
		question := escapeControls(q.Question)
		if len(q.Options) == 0 {
			form.Fields = append(form.Fields, acp.ElicitationField{Name: answerField(i), Title: question, Required: true})
			continue
		}
		form.Fields = append(form.Fields,
			acp.ElicitationField{Name: answerField(i), Title: question, Choices: choices(q), Multiple: q.Multiple},
			acp.ElicitationField{Name: ownField(i), Title: "Or in your own words", Description: "Optional: your own answer to “" + question + "”"})
	}
	return form
}

// choices are a question's options as the editor shows them: their
// control characters spelled out (escapeControls).
func choices(q ask.Question) []string {
	out := make([]string, len(q.Options))
	for i, o := range q.Options {
		out[i] = escapeControls(o)
	}
	return out
}

// formAnswers reads an accepted form: the options the user picked (a
// value that is none of the choices counts as the user's own words), and
// what they wrote.
func formAnswers(questions []ask.Question, resp acp.ElicitationResponse) []ask.Answer {
	answers := make([]ask.Answer, len(questions))
	for i, q := range questions {
		values, _ := resp.Values(answerField(i))
		if len(q.Options) == 0 {
			answers[i].Text = strings.Join(values, "\n")
			continue
		}
		shown := choices(q)
		var words []string
		for _, v := range values {
			if j := slices.Index(shown, v); j >= 0 {
				answers[i].Selected = append(answers[i].Selected, q.Options[j])
			} else {
				words = append(words, v)
			}
		}
		own, _ := resp.Values(ownField(i))
		answers[i].Text = strings.Join(append(words, own...), "\n")
	}
	return answers
}

// The permission options of a question asked as a permission prompt:
// choice-<n> picks option n, declineOption declines.
const (
	choiceOption  = "choice-"
	declineOption = "decline"
)

// askByPermission asks one question with options as a permission prompt
// about the call whose options are the choices (allow_once each) and a
// way to decline (reject_once). A cancelled outcome ends the turn as
// session/cancel does.
func (s *liveSession) askByPermission(ctx context.Context, req ask.Request) (ask.Reply, error) {
	q := req.Questions[0]
	options := make([]acp.PermissionOption, 0, len(q.Options)+1)
	for i, choice := range choices(q) {
		options = append(options, acp.PermissionOption{OptionID: choiceOption + strconv.Itoa(i), Name: choice, Kind: acp.PermissionOptionKindAllowOnce})
	}
	options = append(options, acp.PermissionOption{OptionID: declineOption, Name: "Don't answer", Kind: acp.PermissionOptionKindRejectOnce})
	resp, err := s.client.RequestPermission(ctx, acp.RequestPermissionRequest{
		SessionID: s.id,
		ToolCall: acp.ToolCall{ToolCallID: req.CallID, Title: escapeControls(req.Title()), Kind: acp.ToolKindThink,
			Name: ask.Name, RawInput: json.RawMessage(req.Arguments)},
		Options: options,
	})
	switch {
	case ctx.Err() != nil:
		return ask.Reply{}, fmt.Errorf("the question was withdrawn: %w", ctx.Err())
	case err != nil:
		return s.askFailed(err), nil
	case resp.Outcome.Cancelled != nil:
		s.cancel()
		return ask.Reply{}, ask.ErrCancelled
	case resp.Outcome.Selected == nil:
		return ask.Reply{Outcome: ask.Declined}, nil
	}
	n, ok := strings.CutPrefix(string(resp.Outcome.Selected.OptionId), choiceOption)
	i, err := strconv.Atoi(n)
	if !ok || err != nil || i < 0 || i >= len(q.Options) {
		return ask.Reply{Outcome: ask.Declined}, nil
	}
	reply := ask.Reply{Outcome: ask.Answered, Answers: []ask.Answer{{Selected: []string{q.Options[i]}}}}
	if q.Multiple {
		reply.Note = "(This editor let the user pick one option only.)"
	}
	return reply, nil
}
