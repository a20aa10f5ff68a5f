package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/config"
	"github.com/dsh-acp/dsh-acp/llm"
)

// keylessKey is what a provider that needs no key is sent: the client
// refuses an empty one, and such servers ignore it.
const keylessKey = "none"

// CatalogConfig is what a Catalog is made of.
type CatalogConfig struct {
	// File holds the providers and models (the config file over the
	// built-ins). Required.
	File *config.File
	// DefaultModel is the model new sessions use: a model of File or a
	// model id its default provider serves.
	DefaultModel string
	// Base is the model settings every provider starts from: thinking,
	// reasoning effort, retries, HTTP client, logger (from the
	// environment and flags). Its BaseURL and APIKey serve DefaultModel
	// instead of the provider's when BaseURLGiven is set (DSH_BASE_URL).
	Base         llm.Config
	BaseURLGiven bool
	// Getenv and Credentials give the API keys; the environment wins.
	Getenv      func(string) string
	Credentials *config.Credentials
	// Script, when set, serves every model: the scripted model.
	Script llm.Provider
}

// Catalog serves each session the model its settings name, with the
// provider, key, window and prices the config says. It is safe for
// concurrent use.
type Catalog struct {
	cfg CatalogConfig

	mu        sync.Mutex
	providers map[providerKey]llm.Provider
	listed    []string // the default provider's GET /models, once fetched
}

// providerKey names one configured client: a key change (a login) makes
// a new one.
type providerKey struct {
	baseURL, key, model, effort, thinking string
}

// NewCatalog returns a catalog over cfg.
func NewCatalog(cfg CatalogConfig) (*Catalog, error) {
	if cfg.File == nil {
		return nil, errors.New("catalog: no config")
	}
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	if cfg.BaseURLGiven {
		// DSH_API_KEY then belongs to the server DSH_BASE_URL names, not
		// to the built-in deepseek provider.
		getenv := cfg.Getenv
		cfg.Getenv = func(name string) string {
			if name == llm.EnvAPIKey {
				return ""
			}
			return getenv(name)
		}
	}
	return &Catalog{cfg: cfg, providers: map[providerKey]llm.Provider{}}, nil
}

// resolved is a model as a request needs it.
type resolved struct {
	model    config.Model
	provider config.Provider
}

// resolve finds model: a model of the file, else an id the default
// model's provider serves (one its server listed).
func (c *Catalog) resolve(model string) (resolved, error) {
	m, ok := c.cfg.File.Model(model)
	if !ok {
		def, found := c.cfg.File.Model(c.cfg.DefaultModel)
		provider := "deepseek"
		if found {
			provider = def.Provider
		}
		m = config.Model{Name: model, ID: model, Provider: provider}
	}
	p, ok := c.cfg.File.Provider(m.Provider)
	if !ok {
		return resolved{}, fmt.Errorf("model %q names provider %q, which is not configured", model, m.Provider)
	}
	return resolved{model: m, provider: p}, nil
}

// legacy reports whether model is served at the base URL and key the
// environment named (DSH_BASE_URL and DSH_API_KEY): the default model,
// and the models that server listed, which the config does not describe.
func (c *Catalog) legacy(model string) bool {
	if !c.cfg.BaseURLGiven {
		return false
	}
	_, described := c.cfg.File.Model(model)
	return model == c.cfg.DefaultModel || !described
}

// apiKey returns the key for r, or the error that means "sign in".
func (c *Catalog) apiKey(model string, r resolved) (key, source string, err error) {
	if c.legacy(model) && c.cfg.Base.APIKey != "" {
		return c.cfg.Base.APIKey, c.cfg.Base.APIKeyVar, nil
	}
	key, source, err = c.cfg.File.APIKey(r.provider.Name, c.cfg.Getenv, c.cfg.Credentials)
	if err != nil {
		return "", "", err
	}
	if key == "" {
		key, source = keylessKey, "keyless provider "+r.provider.Name
	}
	return key, source, nil
}

// Check returns an error saying what is missing when model cannot be used
// for want of an API key; nil when it can.
func (c *Catalog) Check(model string) error {
	if c.cfg.Script != nil {
		return nil
	}
	r, err := c.resolve(model)
	if err != nil {
		return err
	}
	_, _, err = c.apiKey(model, r)
	return err
}

// Provider implements Models.
func (c *Catalog) Provider(model, effort string) (llm.Provider, error) {
	if c.cfg.Script != nil {
		return c.cfg.Script, nil
	}
	r, err := c.resolve(model)
	if err != nil {
		return nil, err
	}
	key, source, err := c.apiKey(model, r)
	if err != nil {
		return nil, err
	}
	lc := c.cfg.Base
	lc.BaseURL, lc.APIKey, lc.APIKeyVar, lc.Model = r.provider.BaseURL, key, source, r.model.ID
	if c.legacy(model) {
		lc.BaseURL = c.cfg.Base.BaseURL
	}
	if r.model.Thinking != "" {
		lc.Thinking = r.model.Thinking
	}
	switch {
	case effort != "":
		lc.ReasoningEffort = effort
	case r.model.ReasoningEffort != "":
		lc.ReasoningEffort = r.model.ReasoningEffort
	}
	k := providerKey{lc.BaseURL, lc.APIKey, lc.Model, lc.ReasoningEffort, lc.Thinking}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.providers[k]; ok {
		return p, nil
	}
	if err := lc.Validate(); err != nil {
		return nil, err
	}
	p := llm.NewOpenAI(lc)
	c.providers[k] = p
	return p, nil
}

// Info implements Models.
func (c *Catalog) Info(model string) agent.ModelInfo {
	info := agent.ModelInfo{Name: model}
	m, ok := c.cfg.File.Model(model)
	if !ok {
		return info
	}
	info.ContextWindow = m.ContextWindow
	info.Images = m.Images
	if price := m.Price; price != nil {
		info.Cost = func(u llm.Usage) (float64, string) {
			return price.Cost(u.PromptTokens, u.CachedPromptTokens, u.CompletionTokens), price.Currency
		}
	}
	return info
}

// Choices lists the models the editor's picker offers: the default model,
// then every configured model whose provider has a key (or needs none),
// then the models the default provider's server listed (see
// FetchListed).
func (c *Catalog) Choices() []bridge.ModelChoice {
	var out []bridge.ModelChoice
	seen := map[string]bool{}
	add := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		choice := bridge.ModelChoice{ID: name, Name: name}
		if m, ok := c.cfg.File.Model(name); ok {
			if m.DisplayName != "" {
				choice.Name = m.DisplayName
			}
			choice.Efforts = slices.Clone(m.ReasoningEfforts)
			choice.DefaultEffort = m.ReasoningEffort
			choice.Images = &m.Images
			choice.Description = modelDescription(m)
		}
		out = append(out, choice)
	}
	add(c.cfg.DefaultModel)
	if c.cfg.Script != nil {
		return out
	}
	for _, m := range c.cfg.File.Models {
		if c.Check(m.Name) == nil {
			add(m.Name)
		}
	}
	c.mu.Lock()
	listed := c.listed
	c.mu.Unlock()
	for _, id := range listed {
		add(id)
	}
	return out
}

// FetchListed asks the default model's server which models it serves, so
// the picker offers them too (the first maxListed). It does so only for a
// server the catalog does not describe: one DSH_BASE_URL names, or whose
// default model the config does not list. It is meant to run once, in the
// background: a failure (no key yet, no server) leaves the list as it was.
func (c *Catalog) FetchListed(ctx context.Context) error {
	if _, known := c.cfg.File.Model(c.cfg.DefaultModel); c.cfg.Script != nil || (known && !c.cfg.BaseURLGiven) {
		return nil
	}
	p, err := c.Provider(c.cfg.DefaultModel, "")
	if err != nil {
		return err
	}
	lister, ok := p.(interface {
		Models(context.Context) ([]string, error)
	})
	if !ok {
		return nil
	}
	ids, err := lister.Models(ctx)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.listed = ids[:min(len(ids), maxListed)]
	c.mu.Unlock()
	return nil
}

// maxListed bounds how many of a server's models the picker offers (an
// aggregator lists hundreds).
const maxListed = 100
