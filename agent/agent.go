package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/session"
)

// Defaults for Options.
const (
	DefaultMaxParallelToolCalls = 10
	DefaultMaxRequestsPerTurn   = 64
)

// ErrBusy is returned by Prompt while another prompt of the same agent is
// running.
var ErrBusy = errors.New("a prompt is already running in this session")

// Options configure an Agent.
type Options struct {
	// Provider is the model. Required.
	Provider llm.Provider
	// Pipeline runs the tool calls. Required.
	Pipeline *pipeline.Pipeline
	// Scope is the session's agent scope: the tools it sees are offered to
	// the model, and calls run for it.
	Scope *registry.Scope
	// Parent, for a child agent, is the call of its parent that started
	// it (a task call): every call the child makes is nested in it, with
	// its root call as theirs. Nil for a session's own agent.
	Parent *registry.Call
	// Log records the session. Required.
	Log *session.Log

	// Cwd and Roots describe the workspace to the model.
	Cwd   string
	Roots []string
	// Platform names the OS and architecture; runtime's when empty.
	Platform string
	// Instructions are the project's instructions for the model, such as
	// ProjectInstructions returns; the system prompt shows them in a
	// section of their own.
	Instructions string
	// ClientPrompt is what the client asked the model to be told (ACP's
	// systemPrompt): added as a section after the agent's own way of
	// working, or, with Override, in place of the agent's own
	// instructions (the tools, the workspace and the project's
	// instructions are still told).
	ClientPrompt ClientPrompt
	// Sandbox says what confines the commands (sandbox.Status.Summary);
	// the system prompt's workspace section shows it. Empty says nothing.
	Sandbox string

	// Model describes the model the next request goes to; it is called
	// before every request, so a model the user picks applies from the
	// next request on. Nil means an unknown model: no context window, so
	// no compaction, and no cost.
	Model func() ModelInfo
	// CompactAt is the part of the model's context window a request and
	// the tokens kept for its completion may fill: past it, the oldest
	// turns are compacted into a summary first. DefaultCompactAt when 0;
	// otherwise it must be in (0, 1].
	CompactAt float64
	// Logger receives the agent's warnings and notes, such as a request
	// that does not fit the context window even after compaction; they
	// are discarded when Logger is nil.
	Logger *slog.Logger

	// MaxParallelToolCalls bounds how many parallel-safe calls run at once
	// (1 means serially); DefaultMaxParallelToolCalls when 0.
	MaxParallelToolCalls int
	// MaxRequestsPerTurn bounds the model requests of one turn; the turn
	// then ends with session.StopMaxTurnRequests. DefaultMaxRequestsPerTurn
	// when 0.
	MaxRequestsPerTurn int
	// MaxTokens caps each completion; 0 leaves it to the server.
	MaxTokens int
	// Now is the clock (time.Now when nil), for today's date in the prompt.
	Now func() time.Time
	// Redactor, when set, hides secrets (the known keys, the secret values
	// of the environment) in everything sent to the model: tool results,
	// the system prompt with the project instructions, every message. The
	// log keeps the text as it was.
	Redactor *secrets.Redactor
}

// Agent runs one session's turns. Prompt may be called from any goroutine,
// one prompt at a time.
type Agent struct {
	opts   Options
	logger *slog.Logger
	busy   sync.Mutex
}

// New returns an agent, or an error when a required option is missing.
func New(opts Options) (*Agent, error) {
	switch {
	case opts.Provider == nil:
		return nil, errors.New("agent: a Provider is required")
	case opts.Pipeline == nil:
		return nil, errors.New("agent: a Pipeline is required")
	case opts.Log == nil:
		return nil, errors.New("agent: a Log is required")
	case !(opts.CompactAt >= 0 && opts.CompactAt <= 1): // NaN too
		return nil, fmt.Errorf("agent: CompactAt is %v; want a part of the context window, in (0, 1]", opts.CompactAt)
	}
	if opts.CompactAt == 0 {
		opts.CompactAt = DefaultCompactAt
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if opts.MaxParallelToolCalls <= 0 {
		opts.MaxParallelToolCalls = DefaultMaxParallelToolCalls
	}
	if opts.MaxRequestsPerTurn <= 0 {
		opts.MaxRequestsPerTurn = DefaultMaxRequestsPerTurn
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Platform == "" {
		opts.Platform = runtime.GOOS + "/" + runtime.GOARCH
	}
	if !opts.Redactor.Empty() {
		opts.Provider = redactingProvider{inner: opts.Provider, red: opts.Redactor}
	}
	return &Agent{opts: opts, logger: logger}, nil
}

// Prompt runs one turn for the user's content and returns why it ended.
// The turn's every step is in the log, from TurnStarted to TurnEnded. A
// cancelled ctx ends it with session.StopCancelled and a nil error; a
// model failure ends it with session.StopError and returns the error.
func (a *Agent) Prompt(ctx context.Context, content []presentation.ContentBlock) (session.StopReason, error) {
	return a.PromptSteered(ctx, content, nil)
}

// PromptSteered runs one turn as Prompt does, and takes what the user
// sends while it runs from steering (nil takes nothing): at each step
// after the first — once the tool batch before it is done, never in the
// middle of a tool — each message taken is logged as the user's (Steered)
// and read by the model at that step. A turn whose model has finished
// asks steering for the last time before it ends, and goes on when a
// message arrived.
func (a *Agent) PromptSteered(ctx context.Context, content []presentation.ContentBlock, steering Steering) (session.StopReason, error) {
	if !a.busy.TryLock() {
		return "", ErrBusy
	}
	defer a.busy.Unlock()
	t := &turn{agent: a, log: a.opts.Log, steering: steering}
	t.log.Append(session.TurnStarted{})
	t.log.Append(session.UserMessage{Content: presentation.CloneContent(content)})
	if note, ok := omittedImages(content, a.model()); ok {
		t.log.Append(session.Notice{Text: note})
	}
	reason, err := t.run(ctx)
	end := session.TurnEnded{Reason: reason}
	if err != nil {
		end.Error = err.Error()
	}
	t.log.Append(end)
	if err != nil {
		return reason, fmt.Errorf("turn failed: %w", err)
	}
	return reason, nil
}
