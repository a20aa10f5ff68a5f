package llm

// Usage counts the tokens of one model step. Fields the server did not
// report are zero.
type Usage struct {
	PromptTokens     int64
	CompletionTokens int64
	TotalTokens      int64
	// CachedPromptTokens is the part of PromptTokens served from the
	// server's prompt cache (OpenAI's prompt_tokens_details.cached_tokens or
	// DeepSeek's prompt_cache_hit_tokens).
	CachedPromptTokens int64
}
