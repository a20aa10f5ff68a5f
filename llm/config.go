package llm

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// Environment variable names and defaults of the outside contract
// (DESIGN.md, "The fixed outside contract").
const (
	EnvAPIKey         = "DSH_API_KEY"
	EnvDeepSeekAPIKey = "DEEPSEEK_API_KEY"
	EnvBaseURL        = "DSH_BASE_URL"
	EnvModel          = "DSH_MODEL"
	EnvModelScript    = "DSH_MODEL_SCRIPT"
	// EnvThinking and EnvReasoningEffort set Config.Thinking and
	// Config.ReasoningEffort.
	EnvThinking        = "DSH_THINKING"
	EnvReasoningEffort = "DSH_REASONING_EFFORT"

	DefaultBaseURL = "https://api.deepseek.com"
	// DefaultModel is DeepSeek V4 Flash. DeepSeek retired the names
	// deepseek-chat and deepseek-reasoner (its non-thinking and thinking
	// modes) on 2026-07-24; thinking is now Config.Thinking.
	DefaultModel = "deepseek-v4-flash"
)

// The values of Config.Thinking.
const (
	ThinkingEnabled  = "enabled"
	ThinkingDisabled = "disabled"
)

// DefaultResponseHeaderTimeout bounds the wait for a model server's response
// headers when Config.HTTPClient is nil. It does not limit the stream body.
const DefaultResponseHeaderTimeout = 3 * time.Minute

// Config selects and configures a model provider. The zero value plus an
// APIKey talks to DeepSeek's deepseek-v4-flash, thinking as the model does
// by default.
type Config struct {
	// BaseURL is the OpenAI-compatible API root; empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token. It must not be empty for [OpenAI].
	APIKey string
	// APIKeyVar names the environment variable the key came from, used in
	// error messages; empty means EnvAPIKey.
	APIKeyVar string
	// Model is the model name; empty means DefaultModel.
	Model string
	// Thinking, when set, is sent as "thinking": {"type": Thinking}:
	// ThinkingEnabled or ThinkingDisabled (DeepSeek's V4 models think
	// unless told otherwise). Empty sends nothing, leaving it to the
	// server; servers that do not know the field ignore it.
	Thinking string
	// ReasoningEffort, when set, is sent as "reasoning_effort", as given
	// (lower case): DeepSeek takes high or max (low and medium count as
	// high, xhigh as max); OpenAI's reasoning models take minimal, low,
	// medium or high. Empty sends nothing.
	ReasoningEffort string
	// ModelScript, when set, selects the [Scripted] provider reading this
	// JSONL file instead of a model server.
	ModelScript string
	// HTTPClient sends the requests; nil means a client of the provider's
	// own, whose transport gives up on response headers after
	// DefaultResponseHeaderTimeout (a network timeout, so retried).
	HTTPClient *http.Client
	// Retry bounds the retries of the OpenAI-compatible client; zero fields
	// take the defaults documented on RetryPolicy.
	Retry RetryPolicy
	// Logger receives what the client skips in a model's stream: a chunk
	// field of an unexpected type (debug), a chunk that is not JSON (warn).
	// Nil discards them.
	Logger *slog.Logger
}

// ConfigFromEnv reads the configuration from the environment through
// getenv (typically os.Getenv): DSH_BASE_URL, DSH_API_KEY falling back to
// DEEPSEEK_API_KEY, DSH_MODEL, DSH_MODEL_SCRIPT, DSH_THINKING and
// DSH_REASONING_EFFORT, with the defaults of DESIGN.md. Values are trimmed
// of surrounding white space; the two thinking settings are lower-cased.
// It does not validate: NewProvider does, with Validate.
func ConfigFromEnv(getenv func(string) string) Config {
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	cfg := Config{
		BaseURL:         get(EnvBaseURL),
		Model:           get(EnvModel),
		ModelScript:     get(EnvModelScript),
		APIKey:          get(EnvAPIKey),
		APIKeyVar:       EnvAPIKey,
		Thinking:        strings.ToLower(get(EnvThinking)),
		ReasoningEffort: strings.ToLower(get(EnvReasoningEffort)),
	}
	if cfg.APIKey == "" {
		if key := get(EnvDeepSeekAPIKey); key != "" {
			cfg.APIKey, cfg.APIKeyVar = key, EnvDeepSeekAPIKey
		}
	}
	return cfg.withDefaults()
}

// withDefaults fills the empty fields that have defaults.
func (c Config) withDefaults() Config {
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	if c.Model == "" {
		c.Model = DefaultModel
	}
	if c.APIKeyVar == "" {
		c.APIKeyVar = EnvAPIKey
	}
	return c
}

// Validate reports a setting the model server could not take: a Thinking
// other than ThinkingEnabled or ThinkingDisabled, or a ReasoningEffort
// that is not a lower-case word. The error names the variable to fix.
func (c Config) Validate() error {
	switch c.Thinking {
	case "", ThinkingEnabled, ThinkingDisabled:
	default:
		return fmt.Errorf("thinking (%s) must be %q or %q, not %q", EnvThinking, ThinkingEnabled, ThinkingDisabled, c.Thinking)
	}
	for _, r := range c.ReasoningEffort {
		if r < 'a' || r > 'z' {
			return fmt.Errorf("reasoning effort (%s) must be a lower-case word such as high or max, not %q", EnvReasoningEffort, c.ReasoningEffort)
		}
	}
	return nil
}

// NewProvider returns the provider cfg selects: [Scripted] loaded from
// cfg.ModelScript when it is set, [OpenAI] otherwise. It fails when
// Validate does. A missing API key is not an error here; it is reported by
// the first Stream call, so a server can start and tell the user what to
// set.
func NewProvider(cfg Config) (Provider, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.ModelScript != "" {
		p, err := LoadScript(cfg.ModelScript)
		if err != nil {
			return nil, err // not a typed nil *Scripted inside the interface
		}
		return p, nil
	}
	return NewOpenAI(cfg), nil
}
