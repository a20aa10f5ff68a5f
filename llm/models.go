package llm

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
)

// modelListTimeout bounds the request for the server's models made to
// explain a missing model.
const modelListTimeout = 15 * time.Second

// fail turns the failure of the last attempt into the error Stream
// reports. When the model does not exist it asks the server which models
// do, so the error can name them. The result's text holds no secret.
func (p *OpenAI) fail(ctx context.Context, err error, attempts int) error {
	described := p.describe(err, attempts)
	var missing *ModelNotFoundError
	if errors.As(described, &missing) && ctx.Err() == nil {
		missing.Available, missing.ListErr = p.listModels(ctx)
	}
	// A last pass, for a secret in what the error adds of its own (a key
	// in the base URL's query, say); typed errors stay reachable through
	// errors.As.
	return p.red.Error(described)
}

// listModels returns the ids of the models the server lists at
// GET {base}/models, sorted.
func (p *OpenAI) listModels(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, modelListTimeout)
	defer cancel()
	page, err := p.models.List(ctx)
	if err != nil {
		return nil, p.red.Error(err)
	}
	ids := make([]string, 0, len(page.Data))
	for _, m := range page.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// modelMissing reports whether the server's error says the requested
// model does not exist: a 404, OpenAI's model_not_found code, or a 400 or
// 422 whose message says so (DeepSeek answers 400 "Model Not Exist").
func modelMissing(e *openai.Error) bool {
	switch {
	case e.StatusCode == http.StatusNotFound, e.Code == "model_not_found":
		return true
	case e.StatusCode != http.StatusBadRequest && e.StatusCode != http.StatusUnprocessableEntity:
		return false
	}
	msg := strings.ToLower(e.Message)
	if !strings.Contains(msg, "model") {
		return false
	}
	for _, says := range []string{"not exist", "not found", "not a valid model", "invalid model", "unknown model"} {
		if strings.Contains(msg, says) {
			return true
		}
	}
	return false
}

// retiredModel says what replaced model, when it is a name its server
// has retired, or "".
func retiredModel(model string) string {
	switch model {
	case "deepseek-chat", "deepseek-reasoner":
		return "DeepSeek retired deepseek-chat and deepseek-reasoner on 2026-07-24; their successor is " + DefaultModel + " (thinking on by default; DSH_THINKING=disabled turns it off)"
	}
	return ""
}

// Models returns the ids of the models the server lists at GET
// {base}/models, sorted.
func (p *OpenAI) Models(ctx context.Context) ([]string, error) {
	return p.listModels(ctx)
}
