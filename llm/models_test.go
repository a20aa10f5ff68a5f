package llm_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// failCoded answers status with an OpenAI-style error carrying code.
func failCoded(status int, msg, code string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"invalid_request_error","code":%q,"param":null}}`, msg, code)
	}
}

// TestMissingModelListsTheServersModels: when the server says the model
// does not exist — in DeepSeek's, OpenAI's or Ollama's words — the error
// names the models GET /models lists and how to choose one.
func TestMissingModelListsTheServersModels(t *testing.T) {
	tests := []struct {
		name     string
		model    string
		handler  http.HandlerFunc
		models   []string // nil: GET /models fails
		contains []string
	}{
		{
			name:    "DeepSeek: 400 Model Not Exist for a retired name",
			model:   "deepseek-chat",
			handler: failCoded(400, "Model Not Exist", "invalid_request_error"),
			models:  []string{"deepseek-v4-pro", "deepseek-v4-flash"},
			contains: []string{
				`model "deepseek-chat" not found at http://`, "(400, server said: Model Not Exist)",
				"DeepSeek retired deepseek-chat and deepseek-reasoner on 2026-07-24",
				"The server offers: deepseek-v4-flash, deepseek-v4-pro; choose one with DSH_MODEL or --model.",
			},
		},
		{
			name:     "OpenAI: 404 model_not_found",
			model:    "gpt-9",
			handler:  failCoded(404, "The model `gpt-9` does not exist or you do not have access to it.", "model_not_found"),
			models:   []string{"gpt-5", "gpt-5-mini"},
			contains: []string{`model "gpt-9" not found`, "(404, server said: The model `gpt-9` does not exist", "The server offers: gpt-5, gpt-5-mini; choose one with DSH_MODEL or --model."},
		},
		{
			name:     "Ollama: 404 not found, try pulling it first",
			model:    "qwen9",
			handler:  fail(404, `model "qwen9" not found, try pulling it first`),
			models:   []string{"qwen3:8b"},
			contains: []string{`model "qwen9" not found`, "The server offers: qwen3:8b;"},
		},
		{
			name:     "the model list cannot be read",
			model:    "nope",
			handler:  failCoded(400, "Model Not Exist", "invalid_request_error"),
			contains: []string{`model "nope" not found`, "Its model list (GET http://", "could not be read", "check DSH_BASE_URL, and choose the model with DSH_MODEL or --model."},
		},
		{
			name:     "the server lists no models",
			model:    "nope",
			handler:  failCoded(400, "Model Not Exist", "invalid_request_error"),
			models:   []string{},
			contains: []string{"The server lists no models: check DSH_BASE_URL, and choose the model with DSH_MODEL or --model."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := newModelServer(t, tt.handler)
			if tt.models != nil {
				ms.setModels(tt.models...)
			}
			cfg := testConfig(ms, &fakeSleeper{})
			cfg.Model = tt.model
			_, _, err := collect(t, t.Context(), llm.NewOpenAI(cfg), userRequest("hi"))
			var missing *llm.ModelNotFoundError
			if !errors.As(err, &missing) {
				t.Fatalf("err = %v, want *ModelNotFoundError", err)
			}
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
			if n := ms.modelLists(); n != 1 {
				t.Errorf("GET /models asked %d times, want 1", n)
			}
		})
	}
}

// TestOtherBadRequestsAreNotMissingModels: a 400 about something else
// (DeepSeek's reasoning_content rule) stays an APIError, and the model
// list is not asked for.
func TestOtherBadRequestsAreNotMissingModels(t *testing.T) {
	ms := newModelServer(t, failCoded(400, "The reasoning_content in the thinking mode must be passed back to the API.", "invalid_request_error"))
	ms.setModels("deepseek-v4-flash")
	_, _, err := collect(t, t.Context(), llm.NewOpenAI(testConfig(ms, &fakeSleeper{})), userRequest("hi"))
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Fatalf("err = %#v, want *APIError 400", err)
	}
	if n := ms.modelLists(); n != 0 {
		t.Errorf("GET /models asked %d times, want 0", n)
	}
}

// TestLongModelListsAreCut: a server listing hundreds of models (an
// OpenRouter) gets the first ones named and the rest counted.
func TestLongModelListsAreCut(t *testing.T) {
	ms := newModelServer(t, fail(404, "no such model"))
	var ids []string
	for i := range 300 {
		ids = append(ids, fmt.Sprintf("vendor/model-%03d", i))
	}
	ms.setModels(ids...)
	_, _, err := collect(t, t.Context(), llm.NewOpenAI(testConfig(ms, &fakeSleeper{})), userRequest("hi"))
	if err == nil || !strings.Contains(err.Error(), "vendor/model-000, ") || !strings.Contains(err.Error(), " and 275 more (GET http://") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "vendor/model-299") {
		t.Errorf("every model was named")
	}
}
