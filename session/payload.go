package session

import (
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// TurnStarted opens a turn: the user's prompt follows.
type TurnStarted struct{}

// UserMessage is the user's prompt, or, with Steered, a message the user
// sent while a turn ran, which the model read at its next step.
type UserMessage struct {
	Content []presentation.ContentBlock
	Steered bool
}

// AssistantChunk is a piece of the model's answer as it streams: visible
// text, or reasoning when Reasoning is set.
type AssistantChunk struct {
	Text      string
	Reasoning bool
}

// ToolCallRef is a tool call as the model made it.
type ToolCallRef struct {
	ID   string
	Name string
	// Arguments is the argument JSON text exactly as the model sent it.
	Arguments string
}

// AssistantMessage is the model's complete message for one request: its
// text, its reasoning and the tool calls it made, in model order.
type AssistantMessage struct {
	Text      string
	Reasoning string
	ToolCalls []ToolCallRef
}

// ToolCall announces a tool call about to be prepared. View is how the tool
// wants the pending call shown; nil means it has no presenter (the editor
// shows a generic card).
type ToolCall struct {
	CallID    string
	Name      string
	Arguments string
	View      presentation.CallView
}

// ToolStarted says a call's body has been dispatched.
type ToolStarted struct {
	CallID string
}

// ToolOutput is output a running tool reported, such as a command's next
// chunk of terminal output.
type ToolOutput struct {
	CallID string
	Output string
}

// ToolResult is a finished tool call. CallSeq is the Seq of its ToolCall
// event. View is how the tool wants the result shown; nil means it has no
// result presenter (the editor shows the content).
type ToolResult struct {
	CallID  string
	CallSeq int64
	Content []presentation.ContentBlock
	IsError bool
	// Code is the failure's error code, if any.
	Code string
	// Meta is the tool's presentation meta (canonical JSON, "" when none).
	Meta string
	View presentation.ResultView
}

// ContextMessage is extra context handed to the model after a batch of
// tool results.
type ContextMessage struct {
	Message registry.ContextMessage
}

// PlanEntry is one item of the agent's plan.
type PlanEntry struct {
	Content  string
	Status   string
	Priority string
}

// PlanUpdated replaces one of the agent's plans: its todo list
// (Entries; none clears it), or, with Markdown set, the plan the model
// presents for the user's review in plan mode (exit_plan_mode), whose
// Entries are empty.
type PlanUpdated struct {
	Entries  []PlanEntry
	Markdown string
}

// ModelRetry says a model request failed and is being retried.
type ModelRetry struct {
	Attempt     int
	MaxAttempts int
	Wait        time.Duration
	Reason      string
}

// Usage reports the tokens one model request used, and what they cost.
type Usage struct {
	PromptTokens       int64
	CompletionTokens   int64
	TotalTokens        int64
	CachedPromptTokens int64
	// Model is the model that answered ("" when unknown).
	Model string
	// ContextWindow is that model's context size in tokens (0 when
	// unknown).
	ContextWindow int64
	// Cost is what the request cost, in Currency (ISO 4217); Currency is
	// "" when the model has no price.
	Cost     float64
	Currency string
}

// TitleChanged names the session, as the editor's thread list shows it.
type TitleChanged struct {
	Title string
}

// SettingChanged records a session setting the user changed: which one
// (such as "model" or "mode") and its new value. It takes effect from
// the next model request.
type SettingChanged struct {
	Setting string
	Value   string
}

// Compacted replaces the conversation up to and including the event
// numbered Through by Summary, a model-written account of it: from now
// on the model sees the summary instead of those events. Turns is how many
// turns the summary covers.
type Compacted struct {
	Summary string
	Through int64
	Turns   int
	// Started is the Seq of the CompactionStarted it ends; 0 in logs from
	// before compactions were announced.
	Started int64
}

// CompactionStarted says a summary of the conversation is being written
// (the model is asked for it); a Compacted or a CompactionFailed whose
// Started is this event's Seq ends it.
type CompactionStarted struct{}

// CompactionFailed ends a compaction that wrote no summary: Cancelled
// when the turn was cancelled meanwhile, else Error says why.
type CompactionFailed struct {
	Started   int64
	Error     string
	Cancelled bool
}

// StopReason says why a turn ended.
type StopReason string

// The stop reasons. StopError is ours: the editor sees the turn fail.
const (
	StopEndTurn         StopReason = "end_turn"
	StopMaxTokens       StopReason = "max_tokens"
	StopMaxTurnRequests StopReason = "max_turn_requests"
	StopRefusal         StopReason = "refusal"
	StopCancelled       StopReason = "cancelled"
	StopError           StopReason = "error"
)

// TurnEnded closes a turn. Error describes a failed turn (StopError).
type TurnEnded struct {
	Reason StopReason
	Error  string
}

// Kind returns "turn/start".
func (TurnStarted) Kind() string { return "turn/start" }

// Kind returns "user/message".
func (UserMessage) Kind() string { return "user/message" }

// Kind returns "assistant/chunk".
func (AssistantChunk) Kind() string { return "assistant/chunk" }

// Kind returns "assistant/message".
func (AssistantMessage) Kind() string { return "assistant/message" }

// Kind returns "tool/call".
func (ToolCall) Kind() string { return "tool/call" }

// Kind returns "tool/start".
func (ToolStarted) Kind() string { return "tool/start" }

// Kind returns "tool/output".
func (ToolOutput) Kind() string { return "tool/output" }

// Kind returns "tool/result".
func (ToolResult) Kind() string { return "tool/result" }

// Kind returns "context/message".
func (ContextMessage) Kind() string { return "context/message" }

// Kind returns "plan".
func (PlanUpdated) Kind() string { return "plan" }

// Kind returns "llm/retry".
func (ModelRetry) Kind() string { return "llm/retry" }

// Kind returns "usage".
func (Usage) Kind() string { return "usage" }

// Kind returns "session/title".
func (TitleChanged) Kind() string { return "session/title" }

// Kind returns "session/setting".
func (SettingChanged) Kind() string { return "session/setting" }

// Kind returns "context/compacted".
func (Compacted) Kind() string { return "context/compacted" }

// Kind returns "context/compacting".
func (CompactionStarted) Kind() string { return "context/compacting" }

// Kind returns "context/compaction-failed".
func (CompactionFailed) Kind() string { return "context/compaction-failed" }

// CommandRan is a slash command the session answered itself, without
// the model: the line the user typed and the reply shown. The model does
// not see it.
type CommandRan struct {
	Line  string
	Reply string
}

// FileRestored is one file an undo put back: its path and its text
// before and after (nil: absent). Binary says the text is not shown.
type FileRestored struct {
	Path          string
	Before, After *string
	Binary        bool
}

// FilesRestored records an undo: the files put back as they were before
// a turn.
type FilesRestored struct {
	Files []FileRestored
}

// Notice is something the user should know that no tool call or answer
// says: an MCP server that failed to start or stopped, say.
type Notice struct {
	Text string
}

// Kind returns "notice".
func (Notice) Kind() string { return "notice" }

// Kind returns "command/ran".
func (CommandRan) Kind() string { return "command/ran" }

// Kind returns "files/restored".
func (FilesRestored) Kind() string { return "files/restored" }

// Kind returns "turn/end".
func (TurnEnded) Kind() string { return "turn/end" }

func (TurnStarted) isPayload()       {}
func (UserMessage) isPayload()       {}
func (AssistantChunk) isPayload()    {}
func (AssistantMessage) isPayload()  {}
func (ToolCall) isPayload()          {}
func (ToolStarted) isPayload()       {}
func (ToolOutput) isPayload()        {}
func (ToolResult) isPayload()        {}
func (ContextMessage) isPayload()    {}
func (PlanUpdated) isPayload()       {}
func (ModelRetry) isPayload()        {}
func (Usage) isPayload()             {}
func (TurnEnded) isPayload()         {}
func (TitleChanged) isPayload()      {}
func (SettingChanged) isPayload()    {}
func (Compacted) isPayload()         {}
func (CompactionStarted) isPayload() {}
func (CompactionFailed) isPayload()  {}
func (CommandRan) isPayload()        {}
func (Notice) isPayload()            {}
func (FilesRestored) isPayload()     {}
