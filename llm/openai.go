package llm

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"syscall"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// OpenAI is a [Provider] for OpenAI-compatible Chat Completions servers
// (DeepSeek by default; OpenAI, Ollama, vLLM, llama.cpp, OpenRouter by base
// URL), streaming with stream_options.include_usage.
//
// It reads reasoning deltas from the non-standard reasoning_content (or
// reasoning) field of stream deltas, and sends an assistant message's
// Reasoning back as reasoning_content, which DeepSeek requires for messages
// with tool calls and other servers ignore.
//
// The SDK sends the request (auth, headers) and frames the server-sent
// events; each chunk is decoded here, tolerantly: unknown fields are
// ignored, and a field of an unexpected type or a chunk that is not JSON
// is skipped and logged to Config.Logger, never failing the stream (an
// "error" member in a chunk does fail it). It retries per [RetryPolicy],
// emitting a [RetryNotice] before each wait; the SDK's own retries are off.
// The text of every error it returns, retry notices' included, has been
// through the config's [Redactor]: a server echoing the key shows nothing
// of it. A model the server does not know fails with [*ModelNotFoundError]
// naming the models the server lists.
//
// The client is built from Config alone: unlike openai.NewClient it reads no
// OPENAI_* environment variables. An OpenAI is safe for concurrent use.
type OpenAI struct {
	cfg Config
	red Redactor
	log *slog.Logger
	// client sends the chat requests: auth, headers and the request body
	// are the SDK's; the stream's chunks are decoded by this package.
	client openai.Client
	models openai.ModelService
}

// NewOpenAI returns the client for cfg, with defaults filled in. It never
// fails: a missing API key is reported by Stream as [*AuthError].
func NewOpenAI(cfg Config) *OpenAI {
	cfg = cfg.withDefaults()
	cfg.Retry = cfg.Retry.withDefaults()
	hc := cfg.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient()
	}
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &OpenAI{
		cfg: cfg,
		red: cfg.Redactor(),
		log: log,
		// A Client made of options alone reads no OPENAI_* variables.
		client: openai.Client{Options: opts},
		models: openai.NewModelService(opts...),
	}
}

// Config returns the configuration in use, defaults filled in.
func (p *OpenAI) Config() Config { return p.cfg }

// Stream starts one streamed chat completion for req. It fails before any
// request with [*AuthError] when no API key is configured, and with a plain
// error when the configuration does not validate (Config.Validate) or req
// cannot be encoded (unknown role, invalid tool parameters). The request
// itself is sent on the first call to [Stream.Next].
func (p *OpenAI) Stream(ctx context.Context, req Request) (*Stream, error) {
	if p.cfg.APIKey == "" {
		return nil, &AuthError{BaseURL: p.cfg.BaseURL, Model: p.cfg.Model, KeyVar: p.cfg.APIKeyVar}
	}
	if err := p.cfg.Validate(); err != nil {
		return nil, err
	}
	params, err := chatParams(p.cfg, req)
	if err != nil {
		return nil, err
	}
	return newStream(ctx, &openaiSource{p: p, params: params, chunks: chunkDecoder{log: p.log}}), nil
}

// describe turns a failure of an attempt into the error callers see. The
// server's words are redacted before they go in, and so is the error they
// wrap, so the result's text holds no secret however it is printed.
func (p *OpenAI) describe(err error, attempts int) error {
	red := p.red
	cause := red.Error(err)
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		detail := red.String(apiErr.Message)
		switch {
		case apiErr.StatusCode == http.StatusUnauthorized, apiErr.StatusCode == http.StatusForbidden:
			return &AuthError{StatusCode: apiErr.StatusCode, BaseURL: p.cfg.BaseURL, Model: p.cfg.Model, KeyVar: p.cfg.APIKeyVar, Detail: detail, Err: cause}
		case modelMissing(apiErr):
			return &ModelNotFoundError{StatusCode: apiErr.StatusCode, Model: p.cfg.Model, BaseURL: p.cfg.BaseURL, Detail: detail, Err: cause}
		}
		return &APIError{StatusCode: apiErr.StatusCode, Message: detail, Attempts: attempts, Err: cause}
	}
	var streamErr *ssestream.StreamError
	if errors.As(err, &streamErr) {
		return &APIError{Message: red.String(streamErr.Message), Attempts: attempts, Err: cause}
	}
	var urlErr *url.Error
	var netErr net.Error
	if errors.As(err, &urlErr) || errors.As(err, &netErr) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &ConnectionError{BaseURL: p.cfg.BaseURL, Attempts: attempts, Err: cause}
	}
	return &APIError{Message: cause.Error(), Attempts: attempts, Err: cause}
}

// defaultHTTPClient is a client with its own transport that times out on
// response headers but never on a long stream.
func defaultHTTPClient() *http.Client {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		t = t.Clone()
		t.ResponseHeaderTimeout = DefaultResponseHeaderTimeout
		return &http.Client{Transport: t}
	}
	return &http.Client{}
}
