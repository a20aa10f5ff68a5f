package llm

import "time"

// Event is one item of a [Stream]. It is a closed union: the concrete types
// are [TextDelta], [ReasoningDelta], [ToolCallDelta], [ToolCallDone],
// [RetryNotice], [Finish] and [UsageReport]. A type switch over events should
// have a default case, since new event types may be added.
type Event interface {
	isEvent()
}

// TextDelta is the next piece of the assistant's visible text.
type TextDelta struct {
	Text string
}

// ReasoningDelta is the next piece of the model's reasoning (DeepSeek's
// reasoning_content), shown to the user as thought, not as the answer.
type ReasoningDelta struct {
	Text string
}

// ToolCallDelta is a fragment of the tool call at position Index (0-based, in
// model order). ID and Name are set on the fragment that carries them,
// usually the first; Arguments is the next piece of the argument text. The
// fragments of one Index concatenate to the complete call, which a
// [ToolCallDone] event reports once the model has finished.
type ToolCallDelta struct {
	Index     int
	ID        string
	Name      string
	Arguments string
}

// ToolCallDone reports a complete tool call. All ToolCallDone events of a
// step arrive in Index order, after every delta and immediately before the
// step's [Finish] event.
type ToolCallDone struct {
	Index int
	Call  ToolCall
}

// RetryNotice says that an attempt failed before producing any content and
// that attempt number Attempt (2 or more) of at most MaxAttempts will start
// after Wait. It is emitted before waiting, so a user sees it at once.
type RetryNotice struct {
	Attempt     int
	MaxAttempts int
	Wait        time.Duration
	// Reason is a short human-readable cause, e.g. "429 Too Many Requests".
	Reason string
	// Err is the failure of the previous attempt.
	Err error
}

// Finish ends the model's output for the step. It is emitted exactly once
// per successful stream; a [UsageReport] may follow it.
type Finish struct {
	// Reason is the normalized finish reason.
	Reason FinishReason
	// Raw is the finish reason exactly as the server sent it ("" for
	// providers that have none).
	Raw string
}

// UsageReport carries the token usage of the step, when the server reports
// it. If it is reported more than once, the last report wins.
type UsageReport struct {
	Usage Usage
}

func (TextDelta) isEvent()      {}
func (ReasoningDelta) isEvent() {}
func (ToolCallDelta) isEvent()  {}
func (ToolCallDone) isEvent()   {}
func (RetryNotice) isEvent()    {}
func (Finish) isEvent()         {}
func (UsageReport) isEvent()    {}
