package llm

import (
	"errors"
	"fmt"
	"strings"
)

// ErrIncompleteStream means the server closed the stream before it sent a
// finish reason, so the output may be truncated.
var ErrIncompleteStream = errors.New("the model stream ended before the model finished (connection dropped?)")

// AuthError means the model server cannot be used with the configured key:
// there is none (StatusCode 0), it was rejected (401) or it may not use the
// model (403). The message names the variable to fix.
type AuthError struct {
	StatusCode int
	BaseURL    string
	Model      string
	// KeyVar is the environment variable holding the key (e.g. DSH_API_KEY).
	KeyVar string
	// Detail is the server's own message, if any.
	Detail string
	// Err is the underlying error, if any.
	Err error
}

// Error says what is wrong with the key and which variable to set or check.
func (e *AuthError) Error() string {
	var msg string
	switch e.StatusCode {
	case 0:
		msg = fmt.Sprintf("no API key: set %s (or %s); a local server that needs none accepts any value", EnvAPIKey, EnvDeepSeekAPIKey)
	case 403:
		msg = fmt.Sprintf("the model server at %s refused access to model %q (403): check that the key in %s may use it, or change %s", e.BaseURL, e.Model, e.keyVar(), EnvModel)
	default:
		msg = fmt.Sprintf("the model server at %s rejected the API key (%d): check %s", e.BaseURL, e.StatusCode, e.keyVar())
	}
	return withDetail(msg, e.Detail)
}

// Unwrap returns the underlying error, nil if there is none.
func (e *AuthError) Unwrap() error { return e.Err }

func (e *AuthError) keyVar() string {
	if e.KeyVar == "" {
		return EnvAPIKey
	}
	return e.KeyVar
}

// ModelNotFoundError means the server does not know the model: it
// answered 404, said model_not_found, or (DeepSeek) 400 "Model Not
// Exist". Available lists the models the server offers at GET
// {BaseURL}/models, or ListErr says why they could not be read.
type ModelNotFoundError struct {
	// StatusCode is the server's answer (0 when unknown).
	StatusCode int
	Model      string
	BaseURL    string
	// Detail is the server's own message, if any.
	Detail string
	// Available are the ids of the models the server lists, sorted.
	Available []string
	// ListErr is why the model list could not be read, if it could not.
	ListErr error
	// Err is the underlying error, if any.
	Err error
}

// maxListedModels bounds how many of the server's models an error names.
const maxListedModels = 25

// Error names the model and the server, the models the server offers,
// and how to choose one (DSH_MODEL or --model).
func (e *ModelNotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model %q not found at %s", e.Model, e.BaseURL)
	switch {
	case e.StatusCode != 0 && e.Detail != "":
		fmt.Fprintf(&b, " (%d, server said: %s)", e.StatusCode, e.Detail)
	case e.StatusCode != 0:
		fmt.Fprintf(&b, " (%d)", e.StatusCode)
	case e.Detail != "":
		fmt.Fprintf(&b, " (server said: %s)", e.Detail)
	}
	b.WriteString(". ")
	if hint := retiredModel(e.Model); hint != "" {
		b.WriteString(hint + ". ")
	}
	switch {
	case len(e.Available) > 0:
		shown := e.Available[:min(len(e.Available), maxListedModels)]
		fmt.Fprintf(&b, "The server offers: %s", strings.Join(shown, ", "))
		if more := len(e.Available) - len(shown); more > 0 {
			fmt.Fprintf(&b, " and %d more (GET %s/models)", more, e.BaseURL)
		}
		fmt.Fprintf(&b, "; choose one with %s or --model.", EnvModel)
	case e.ListErr != nil:
		fmt.Fprintf(&b, "Its model list (GET %s/models) could not be read (%v): check %s, and choose the model with %s or --model.", e.BaseURL, e.ListErr, EnvBaseURL, EnvModel)
	default:
		fmt.Fprintf(&b, "The server lists no models: check %s, and choose the model with %s or --model.", EnvBaseURL, EnvModel)
	}
	return b.String()
}

// Unwrap returns the underlying error, nil if there is none.
func (e *ModelNotFoundError) Unwrap() error { return e.Err }

// APIError is any other error the model server reported: an HTTP status
// (StatusCode), possibly after retries (Attempts), or an error event inside
// the stream (StatusCode 0).
type APIError struct {
	StatusCode int
	Message    string
	// Attempts is how many attempts were made, 1 when none was retried.
	Attempts int
	Err      error
}

// Error gives the status, the attempts and the server's message.
func (e *APIError) Error() string {
	var msg string
	if e.StatusCode == 0 {
		msg = "the model server reported an error"
	} else {
		msg = fmt.Sprintf("the model server answered %d", e.StatusCode)
	}
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	return withDetail(msg, e.Message)
}

// Unwrap returns the underlying error, nil if there is none.
func (e *APIError) Unwrap() error { return e.Err }

// ConnectionError means the model server could not be reached or the
// connection failed, possibly after retries.
type ConnectionError struct {
	BaseURL  string
	Attempts int
	Err      error
}

// Error names the server, the cause and DSH_BASE_URL.
func (e *ConnectionError) Error() string {
	msg := fmt.Sprintf("cannot reach the model server at %s", e.BaseURL)
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	return fmt.Sprintf("%s: %v: check %s and the network", msg, e.Err, EnvBaseURL)
}

// Unwrap returns the underlying error, nil if there is none.
func (e *ConnectionError) Unwrap() error { return e.Err }

// ScriptError is a problem with a model script: the file (or the name given
// for a reader) and the 1-based line number, 0 when not about one line.
type ScriptError struct {
	File string
	Line int
	Err  error
}

// Error reads "model script <file>:<line>: <problem>".
func (e *ScriptError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("model script %s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("model script %s:%d: %v", e.File, e.Line, e.Err)
}

// Unwrap returns the underlying error, nil if there is none.
func (e *ScriptError) Unwrap() error { return e.Err }

func withDetail(msg, detail string) string {
	if detail == "" {
		return msg
	}
	return fmt.Sprintf("%s (server said: %s)", msg, detail)
}
