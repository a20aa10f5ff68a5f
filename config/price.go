package config

// Price is what a model's tokens cost, per million tokens, in Currency.
type Price struct {
	// Input is the price of a prompt token the server's cache missed.
	Input float64
	// CachedInput is the price of a prompt token served from the
	// server's prompt cache. A config file that gives none gets Input.
	CachedInput float64
	// Output is the price of a completion token (reasoning included).
	Output float64
	// Currency is an ISO 4217 code, such as USD.
	Currency string
}

// Cost is the price of one model response: cachedPromptTokens at
// CachedInput, the rest of promptTokens at Input, and completionTokens at
// Output. cachedPromptTokens counts part of promptTokens, as both
// OpenAI's cached_tokens and DeepSeek's prompt_cache_hit_tokens do; it is
// clamped to [0, promptTokens].
func (p Price) Cost(promptTokens, cachedPromptTokens, completionTokens int64) float64 {
	cached := min(max(cachedPromptTokens, 0), max(promptTokens, 0))
	missed := max(promptTokens, 0) - cached
	micro := float64(missed)*p.Input + float64(cached)*p.CachedInput + float64(max(completionTokens, 0))*p.Output
	return micro / 1e6
}
