package llm

import (
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

	DefaultBaseURL = "https://api.deepseek.com"
	DefaultModel   = "deepseek-chat"
)

// DefaultResponseHeaderTimeout bounds the wait for a model server's response
// headers when Config.HTTPClient is nil. It does not limit the stream body.
const DefaultResponseHeaderTimeout = 3 * time.Minute

// Config selects and configures a model provider. The zero value plus an
// APIKey talks to DeepSeek's deepseek-chat.
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
}

// ConfigFromEnv reads the configuration from the environment through
// getenv (typically os.Getenv): DSH_BASE_URL, DSH_API_KEY falling back to
// DEEPSEEK_API_KEY, DSH_MODEL and DSH_MODEL_SCRIPT, with the defaults of
// DESIGN.md. Values are trimmed of surrounding white space.
func ConfigFromEnv(getenv func(string) string) Config {
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	cfg := Config{
		BaseURL:     get(EnvBaseURL),
		Model:       get(EnvModel),
		ModelScript: get(EnvModelScript),
		APIKey:      get(EnvAPIKey),
		APIKeyVar:   EnvAPIKey,
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

// NewProvider returns the provider cfg selects: [Scripted] loaded from
// cfg.ModelScript when it is set, [OpenAI] otherwise. A missing API key is
// not an error here; it is reported by the first Stream call, so a server
// can start and tell the user what to set.
func NewProvider(cfg Config) (Provider, error) {
	if cfg.ModelScript != "" {
		p, err := LoadScript(cfg.ModelScript)
		if err != nil {
			return nil, err // not a typed nil *Scripted inside the interface
		}
		return p, nil
	}
	return NewOpenAI(cfg), nil
}
