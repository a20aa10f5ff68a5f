package ask

import (
	"context"
	"errors"
)

// Asker puts questions to the user and waits for the reply; the bridge
// implements it for each session. Ask must return once ctx ends (the turn
// was cancelled or the session closed), withdrawing the question it
// shows, with an error wrapping ctx's; when the user cancels the whole
// turn in the question's place, it ends the turn and returns an error
// wrapping ErrCancelled. It must be safe for concurrent use.
type Asker interface {
	Ask(ctx context.Context, req Request) (Reply, error)
}

// ErrCancelled is wrapped by the error of an Ask the user answered by
// cancelling the turn.
var ErrCancelled = errors.New("the user cancelled the turn")

// Request is one ask_user call: its checked questions, for the call the
// editor shows.
type Request struct {
	// CallID is the tool call's id; Arguments are its arguments as the
	// model sent them (a JSON object), for a prompt that shows the call.
	CallID    string
	Arguments string
	// Questions are 1 to MaxQuestions, each checked (Question.check).
	Questions []Question
}

// Outcome is how an Ask ended.
type Outcome int

// The outcomes of an Ask.
const (
	// Answered: Reply.Answers holds one answer per question.
	Answered Outcome = iota
	// Declined: the user chose not to answer.
	Declined
	// Unavailable: the client has no way to ask these questions.
	Unavailable
)

// Reply is what the user gave.
type Reply struct {
	Outcome Outcome
	// Answers are the answers, one per question in order (Answered only).
	Answers []Answer
	// Note, when set, is one sentence the model should know about how the
	// questions were asked ("The editor let the user pick one option
	// only.").
	Note string
}

// Answer is the user's answer to one question: the options picked, what
// they typed, both, or neither (the question left blank).
type Answer struct {
	Selected []string
	Text     string
}
