package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
)

// chunkWire is the part of a streamed chat.completion.chunk the client
// reads, decoded with encoding/json. Fields it does not name are ignored;
// every field is optional. The shapes follow OpenAI's Chat Completions and
// the servers that copy it: DeepSeek, Ollama, vLLM, llama.cpp, OpenRouter.
type chunkWire struct {
	Choices []choiceWire `json:"choices"`
	// Usage is nil when absent or null (OpenAI sends "usage": null on
	// every chunk but the last when include_usage is on).
	Usage *usageWire `json:"usage"`
	// Error is set when the server reports a failure inside the stream.
	Error json.RawMessage `json:"error"`
}

type choiceWire struct {
	Index        int       `json:"index"`
	Delta        deltaWire `json:"delta"`
	FinishReason string    `json:"finish_reason"`
}

type deltaWire struct {
	Content string `json:"content"`
	// ReasoningContent is DeepSeek's (and llama.cpp's, older vLLM's)
	// reasoning field; Reasoning is OpenRouter's, Ollama's and newer
	// vLLM's. When both are set, ReasoningContent wins.
	ReasoningContent string         `json:"reasoning_content"`
	Reasoning        string         `json:"reasoning"`
	ToolCalls        []toolCallWire `json:"tool_calls"`
}

type toolCallWire struct {
	// Index is nil when the server omits it.
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type usageWire struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	TotalTokens         int64 `json:"total_tokens"`
	PromptTokensDetails *struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	// PromptCacheHitTokens is DeepSeek's count of cached prompt tokens.
	PromptCacheHitTokens *int64 `json:"prompt_cache_hit_tokens"`
}

// usage converts u, taking the cached tokens from OpenAI's
// prompt_tokens_details.cached_tokens or else DeepSeek's
// prompt_cache_hit_tokens.
func (u *usageWire) usage() Usage {
	out := Usage{
		PromptTokens:     u.PromptTokens,
		CompletionTokens: u.CompletionTokens,
		TotalTokens:      u.TotalTokens,
	}
	switch {
	case u.PromptTokensDetails != nil && u.PromptTokensDetails.CachedTokens != nil:
		out.CachedPromptTokens = *u.PromptTokensDetails.CachedTokens
	case u.PromptCacheHitTokens != nil:
		out.CachedPromptTokens = *u.PromptCacheHitTokens
	}
	return out
}

// reasoning is the delta's reasoning text, from either field.
func (d *deltaWire) reasoning() string {
	if d.ReasoningContent != "" {
		return d.ReasoningContent
	}
	return d.Reasoning
}

// chunkDecoder decodes the chunks of one stream, one event's data at a
// time, into a reused chunkWire. It keeps one json.Decoder across chunks,
// so encoding/json reuses its scanner and decode state: a json.Unmarshal
// per chunk allocates about eight times before it decodes a field.
type chunkDecoder struct {
	log   *slog.Logger
	chunk chunkWire
	src   bytes.Reader
	dec   *json.Decoder // nil after a failure: the next chunk starts afresh
	fed   int64         // bytes given to dec since it was made
}

// decode reads data into d.chunk and reports whether data held a JSON
// value it could read. A field of an unexpected type is skipped (logged at
// debug level; the rest of the chunk still counts), while data that is not
// JSON is skipped whole (logged as a warning). Neither fails the stream.
// Elements of d.chunk within capacity are zeroed first, so a field absent
// from this chunk never keeps the previous chunk's value.
func (d *chunkDecoder) decode(data []byte) bool {
	c := &d.chunk
	choices := c.Choices[:cap(c.Choices)]
	clear(choices)
	*c = chunkWire{Choices: choices[:0]}
	if d.dec == nil {
		d.src.Reset(nil)
		d.dec, d.fed = json.NewDecoder(&d.src), 0
	}
	d.src.Reset(data)
	d.fed += int64(len(data))
	if err := d.dec.Decode(c); err != nil {
		// Declared here, not above: errors.As makes it escape.
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			d.log.Warn("model stream: skipped a chunk that is not a JSON object", "err", err, "bytes", len(data))
			d.dec = nil
			return false
		}
		d.log.Debug("model stream: ignored a chunk field of unexpected type",
			"field", typeErr.Field, "json", typeErr.Value, "want", typeErr.Type.String())
	}
	// What follows the value in this event's data must be white space;
	// anything else is dropped with the decoder that buffered it.
	if rest := d.fed - d.dec.InputOffset(); rest > 0 && rest <= int64(len(data)) &&
		len(bytes.TrimSpace(data[int64(len(data))-rest:])) > 0 {
		d.log.Warn("model stream: ignored data after a chunk's JSON value", "bytes", rest)
		d.dec = nil
	}
	return true
}

// restart forgets what the decoder buffered, for a new attempt's stream.
func (d *chunkDecoder) restart() { d.dec = nil }
