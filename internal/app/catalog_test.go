package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/config"
	"github.com/dsh-acp/dsh-acp/internal/app"
	"github.com/dsh-acp/dsh-acp/llm"
)

const catalogFile = `
model = "qwen"
[providers.local]
base_url = "http://127.0.0.1:1/v1"
keyless = true
[providers.router]
base_url = "http://127.0.0.1:2/v1"
api_key_env = "ROUTER_KEY"
[models.qwen]
provider = "local"
id = "qwen2.5-coder:32b"
name = "Qwen (local)"
context_window = 32768
[models.sonnet]
provider = "router"
id = "anthropic/claude-sonnet"
price = { input = 3.0, cached_input = 0.3, output = 15.0, currency = "USD" }
context_window = 200000
`

func catalog(t *testing.T, env map[string]string, mutate func(*app.CatalogConfig)) *app.Catalog {
	t.Helper()
	f, err := config.Parse("test.toml", []byte(catalogFile))
	if err != nil {
		t.Fatal(err)
	}
	cc := app.CatalogConfig{
		File: f, DefaultModel: f.DefaultModel, Base: llm.Config{},
		Getenv:      func(k string) string { return env[k] },
		Credentials: config.OpenCredentials(filepath.Join(t.TempDir(), "credentials.json")),
	}
	if mutate != nil {
		mutate(&cc)
	}
	c, err := app.NewCatalog(cc)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func choiceIDs(cs []bridge.ModelChoice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// The picker offers the default model, then the models whose provider has
// a key (or needs none); a key in the environment or a login makes more.
func TestCatalogOffersUsableModels(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"no keys", nil, []string{"qwen"}},
		{"a router key", map[string]string{"ROUTER_KEY": "k-router-123"}, []string{"qwen", "sonnet"}},
		{"a DeepSeek key", map[string]string{"DSH_API_KEY": "k-deepseek-123"}, []string{"qwen", "deepseek-v4-flash", "deepseek-v4-pro"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := choiceIDs(catalog(t, tt.env, nil).Choices())
			if !slices.Equal(got, tt.want) {
				t.Errorf("choices = %v, want %v", got, tt.want)
			}
		})
	}
}

// Check says what is missing for a model whose provider needs a key.
func TestCatalogCheck(t *testing.T) {
	c := catalog(t, nil, nil)
	if err := c.Check("qwen"); err != nil {
		t.Errorf("a keyless model: %v", err)
	}
	var missing *config.MissingKeyError
	if err := c.Check("sonnet"); !errors.As(err, &missing) || missing.Provider != "router" {
		t.Errorf("a model without its key: %v, want MissingKeyError for router", err)
	}
	if _, err := c.Provider("sonnet", ""); !errors.As(err, &missing) {
		t.Errorf("Provider without a key: %v", err)
	}
}

// Info gives the window and prices the cost from the config.
func TestCatalogInfo(t *testing.T) {
	info := catalog(t, nil, nil).Info("sonnet")
	if info.ContextWindow != 200000 || info.Cost == nil {
		t.Fatalf("info = %+v", info)
	}
	// 10,000 prompt tokens of which 4,000 cached, 1,000 completion:
	// 6,000 × 3.0/1M + 4,000 × 0.3/1M + 1,000 × 15.0/1M
	// = 0.018 + 0.0012 + 0.015 = 0.0342 USD.
	amount, currency := info.Cost(llm.Usage{PromptTokens: 10000, CachedPromptTokens: 4000, CompletionTokens: 1000})
	if math.Abs(amount-0.0342) > 1e-12 || currency != "USD" {
		t.Errorf("cost = %v %s, want 0.0342 USD", amount, currency)
	}
	if info := catalog(t, nil, nil).Info("unknown-model"); info.ContextWindow != 0 || info.Cost != nil {
		t.Errorf("an unknown model has a window or price: %+v", info)
	}
}

// A server DSH_BASE_URL names serves the default model with DSH_API_KEY,
// and its GET /models list is offered in the picker.
func TestCatalogServerFromTheEnvironment(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer env-key-123" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": []map[string]any{
			{"id": "served-b", "object": "model"}, {"id": "served-a", "object": "model"},
		}})
	}))
	defer srv.Close()
	c := catalog(t, nil, func(cc *app.CatalogConfig) {
		cc.DefaultModel = "served-a"
		cc.Base = llm.Config{BaseURL: srv.URL, APIKey: "env-key-123", APIKeyVar: "DSH_API_KEY"}
		cc.BaseURLGiven = true
	})
	if err := c.Check("served-a"); err != nil {
		t.Fatalf("the environment's key is not used: %v", err)
	}
	if err := c.FetchListed(context.Background()); err != nil {
		t.Fatalf("FetchListed: %v", err)
	}
	got := choiceIDs(c.Choices())
	if !slices.Equal(got, []string{"served-a", "qwen", "served-b"}) {
		t.Errorf("choices = %v, want the default, the usable configured model, then the server's", got)
	}
	// A listed model is served where it was listed, with the same key.
	if err := c.Check("served-b"); err != nil {
		t.Errorf("a listed model: %v", err)
	}
}

// With DSH_BASE_URL, DSH_API_KEY is that server's key: it does not make
// DeepSeek's built-in models usable.
func TestCatalogKeyOfTheEnvironmentsServer(t *testing.T) {
	c := catalog(t, map[string]string{"DSH_API_KEY": "env-key-123"}, func(cc *app.CatalogConfig) {
		cc.DefaultModel = "served-a"
		cc.Base = llm.Config{BaseURL: "http://127.0.0.1:3/v1", APIKey: "env-key-123", APIKeyVar: "DSH_API_KEY"}
		cc.BaseURLGiven = true
	})
	if got := choiceIDs(c.Choices()); !slices.Equal(got, []string{"served-a", "qwen"}) {
		t.Errorf("choices = %v, want no DeepSeek model", got)
	}
}
