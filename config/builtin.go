package config

import "github.com/dsh-acp/dsh-acp/llm"

// Names of the built-in providers.
const (
	// ProviderDeepSeek is DeepSeek's API, the default.
	ProviderDeepSeek = "deepseek"
	// ProviderOpenAI is OpenAI's API.
	ProviderOpenAI = "openai"
)

// EnvOpenAIAPIKey is where the built-in openai provider's key is read.
const EnvOpenAIAPIKey = "OPENAI_API_KEY"

// builtinProviders are the providers every File has; a config file may
// override their fields. DeepSeek reads its key as llm.ConfigFromEnv
// does: DSH_API_KEY, falling back to DEEPSEEK_API_KEY.
func builtinProviders() []Provider {
	return []Provider{
		{Name: ProviderDeepSeek, BaseURL: llm.DefaultBaseURL, APIKeyEnv: []string{llm.EnvAPIKey, llm.EnvDeepSeekAPIKey}},
		{Name: ProviderOpenAI, BaseURL: "https://api.openai.com/v1", APIKeyEnv: []string{EnvOpenAIAPIKey}},
	}
}

// builtinModels are the models every File has, in the order the editor's
// picker lists them after the file's own; a config file may override
// their fields.
//
// Prices are USD per million tokens, checked on 2026-11-30 against
// stored copies of the providers' pages:
//
//   - DeepSeek, https://api-docs.deepseek.com/quick_start/pricing (copy
//     of 2026-11-15): both models have a 1M-token context. Since
//     2026-08-16 DeepSeek bills peak hours (01:00-04:00 and 06:00-10:00
//     UTC on weekdays) at twice the off-peak rate; a Price has one rate,
//     so these are the peak rates, and a cost shown is at most the bill
//     (off-peak it is twice the bill). deepseek-v4-flash is now a legacy
//     name DeepSeek serves with DeepSeek-V4.1-Flash (model name
//     deepseek-flash) at the Flash price. Off-peak, per million tokens:
//     Flash 0.003 cache hit, 0.15 cache miss, 0.60 output; Pro 0.022,
//     0.66, 1.98.
//   - OpenAI gpt-4.1 (https://platform.openai.com/docs/pricing, as
//     listed by GitHub's Copilot price table and the Vercel AI Gateway):
//     2.00 input, 0.50 cached input, 8.00 output; a 1,047,576-token
//     context; it takes images (text and image input). The DeepSeek
//     models take text only.
func builtinModels() []Model {
	return []Model{
		{
			Name: "deepseek-v4-flash", ID: "deepseek-v4-flash", DisplayName: "DeepSeek V4 Flash",
			Provider: ProviderDeepSeek, ContextWindow: 1_000_000,
			Price:            &Price{Input: 0.30, CachedInput: 0.006, Output: 1.20, Currency: "USD"},
			ReasoningEfforts: []string{"high", "max"},
		},
		{
			Name: "deepseek-v4-pro", ID: "deepseek-v4-pro", DisplayName: "DeepSeek V4 Pro",
			Provider: ProviderDeepSeek, ContextWindow: 1_000_000,
			Price:            &Price{Input: 1.32, CachedInput: 0.044, Output: 3.96, Currency: "USD"},
			ReasoningEfforts: []string{"high", "max"},
		},
		{
			Name: "gpt-4.1", ID: "gpt-4.1", DisplayName: "GPT-4.1",
			Provider: ProviderOpenAI, ContextWindow: 1_047_576,
			Price:  &Price{Input: 2.00, CachedInput: 0.50, Output: 8.00, Currency: "USD"},
			Images: true,
		},
	}
}
