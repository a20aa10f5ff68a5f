package llm

// FinishReason says why the model stopped. Only the constants below occur.
type FinishReason string

// The normalized finish reasons.
const (
	// FinishStop: the model ended its answer.
	FinishStop FinishReason = "stop"
	// FinishToolCalls: the model wants its tool calls run.
	FinishToolCalls FinishReason = "tool_calls"
	// FinishLength: the output hit the token limit.
	FinishLength FinishReason = "length"
	// FinishContentFilter: the server filtered the output.
	FinishContentFilter FinishReason = "content_filter"
	// FinishOther: any other reason the server gave.
	FinishOther FinishReason = "other"
)

// normalizeFinishReason maps a server's finish reason to a FinishReason.
func normalizeFinishReason(raw string) FinishReason {
	switch raw {
	case "stop", "end_turn", "eos":
		return FinishStop
	case "tool_calls", "function_call", "tool_use":
		return FinishToolCalls
	case "length", "max_tokens":
		return FinishLength
	case "content_filter":
		return FinishContentFilter
	default:
		return FinishOther
	}
}
