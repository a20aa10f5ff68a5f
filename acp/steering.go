package acp

// MethodSessionSteering is the extension method by which a client sends
// what the user typed while a turn runs (as claude-agent-acp and
// codex-acp implement it). An agent that serves it says so in its
// initialize answer's _meta (SteeringMeta).
const MethodSessionSteering = "_session/steering"

// SteeringMeta is the member of the initialize answer's _meta that
// advertises steering: "steering": {"supported": true}.
func SteeringMeta() map[string]any {
	return map[string]any{"supported": true}
}

// SteeringRequest is the params of _session/steering.
type SteeringRequest struct {
	SessionID string          `json:"sessionId"`
	Prompt    []PromptContent `json:"prompt"`
	// Priority is the client's hint ("normal" when absent); it does not
	// change where the message lands.
	Priority string         `json:"priority,omitempty"`
	Meta     map[string]any `json:"_meta,omitempty"`
}

// IdleBehavior is what the client asked for when no turn runs:
// _meta.steering.idleBehavior, "" when absent.
func (r SteeringRequest) IdleBehavior() string {
	steering, _ := r.Meta["steering"].(map[string]any)
	behavior, _ := steering["idleBehavior"].(string)
	return behavior
}

// IdleBehaviorPromptRequired asks the agent not to start a turn for a
// message sent while none runs.
const IdleBehaviorPromptRequired = "promptRequired"

// The outcomes of _session/steering.
const (
	// SteeringInjected: the running turn reads the message at its next step.
	SteeringInjected = "injected"
	// SteeringPromptRequired: no turn runs, and the client asked that
	// none be started (the reason says why).
	SteeringPromptRequired = "promptRequired"
	// SteeringStartedNewTurn: no turn ran, so the message started one.
	SteeringStartedNewTurn = "startedNewTurn"
)

// SteeringReasonNoRunningTurn is the reason of a promptRequired outcome.
const SteeringReasonNoRunningTurn = "noRunningTurn"

// SteeringResponse is the result of _session/steering.
type SteeringResponse struct {
	Outcome string         `json:"outcome"`
	Reason  string         `json:"reason,omitempty"`
	Meta    map[string]any `json:"_meta,omitempty"`
}
