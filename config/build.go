package config

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// builder turns a decoded file into a File over the built-ins, collecting
// an *Error for every value that makes no sense.
type builder struct {
	path string
	pos  positions
	errs []*Error
}

// fail records a problem with the key at path.
func (b *builder) fail(path []string, format string, args ...any) {
	b.errs = append(b.errs, &Error{Path: b.path, Line: b.pos.line(path...), Key: dottedKey(path), Msg: fmt.Sprintf(format, args...)})
}

// err is every recorded problem in line order, joined; nil when none.
func (b *builder) err() error {
	if len(b.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(b.errs, func(x, y *Error) int { return cmp.Compare(x.Line, y.Line) })
	errs := make([]error, len(b.errs))
	for i, e := range b.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// inFileOrder sorts the keys of a table of the file by the line each
// first appears on (then by name, for keys on one line).
func inFileOrder[V any](b *builder, table string, m map[string]V) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(x, y string) int {
		return cmp.Or(cmp.Compare(b.pos.line(table, x), b.pos.line(table, y)), cmp.Compare(x, y))
	})
	return keys
}

func (b *builder) build(raw *rawFile) *File {
	f := Default()
	f.Path = b.path
	for _, name := range inFileOrder(b, "providers", raw.Providers) {
		f.Providers[name] = b.provider(f.Providers, name, raw.Providers[name])
	}
	var models []Model
	overridden := map[string]bool{}
	for _, name := range inFileOrder(b, "models", raw.Models) {
		base, builtin := f.Model(name)
		overridden[name] = builtin
		models = append(models, b.model(f.Providers, base, builtin, name, raw.Models[name]))
	}
	for _, m := range f.Models {
		if !overridden[m.Name] {
			models = append(models, m)
		}
	}
	f.Models = models
	if raw.Model != nil {
		if _, ok := f.Model(*raw.Model); ok {
			f.DefaultModel = *raw.Model
		} else {
			b.fail([]string{"model"}, "unknown model %q (known: %s)", *raw.Model, strings.Join(modelNames(f.Models), ", "))
		}
	}
	for _, name := range inFileOrder(b, "mcp_servers", raw.MCPServers) {
		f.MCPServers = append(f.MCPServers, b.mcpServer(name, raw.MCPServers[name]))
	}
	for _, name := range inFileOrder(b, "language_servers", raw.LanguageServers) {
		f.LanguageServers = append(f.LanguageServers, b.languageServer(name, raw.LanguageServers[name]))
	}
	f.Sandbox = b.sandbox(raw.Sandbox)
	f.Subagents = b.subagents(raw.Subagents)
	if raw.Preset != nil {
		if p, err := policy.ParsePreset(*raw.Preset); err != nil {
			b.fail([]string{"preset"}, "%v", err)
		} else {
			f.DefaultPreset = string(p)
		}
	}
	return f
}

// provider is the provider called name: the built-in of that name, or a
// new one, with the file's fields over it.
func (b *builder) provider(known map[string]Provider, name string, raw rawProvider) Provider {
	at := func(key ...string) []string { return append([]string{"providers", name}, key...) }
	p, builtin := known[name]
	if !builtin {
		p = Provider{Name: name}
		if name == "" {
			b.fail(at(), "a provider needs a name")
		}
	}
	switch {
	case raw.BaseURL != nil:
		if err := checkBaseURL(*raw.BaseURL); err != nil {
			b.fail(at("base_url"), "%v", err)
		}
		p.BaseURL = *raw.BaseURL
	case !builtin:
		b.fail(at(), "base_url is missing: give the server's OpenAI-compatible API root, such as http://localhost:11434/v1")
	}
	if raw.APIKeyEnv != nil {
		names, err := envNames(raw.APIKeyEnv)
		if err != nil {
			b.fail(at("api_key_env"), "%v", err)
		}
		p.APIKeyEnv = names
	}
	if raw.Keyless != nil {
		p.Keyless = *raw.Keyless
	}
	return p
}

// model is the model called name: base (a built-in when builtin is set)
// with the file's fields over it.
func (b *builder) model(providers map[string]Provider, base Model, builtin bool, name string, raw rawModel) Model {
	at := func(key ...string) []string { return append([]string{"models", name}, key...) }
	m := base
	if !builtin {
		m = Model{Name: name, ID: name, DisplayName: name}
		if name == "" {
			b.fail(at(), "a model needs a name")
		}
	}
	b.setString(at("id"), raw.ID, &m.ID)
	b.setString(at("name"), raw.Name, &m.DisplayName)
	switch {
	case raw.Provider != nil:
		m.Provider = *raw.Provider
		if _, ok := providers[m.Provider]; !ok {
			b.fail(at("provider"), "unknown provider %q (known: %s)", m.Provider, strings.Join(slices.Sorted(maps.Keys(providers)), ", "))
		}
	case !builtin:
		b.fail(at(), "provider is missing: name one of %s", strings.Join(slices.Sorted(maps.Keys(providers)), ", "))
	}
	if raw.ContextWindow != nil {
		if *raw.ContextWindow <= 0 {
			b.fail(at("context_window"), "must be a positive number of tokens, not %d", *raw.ContextWindow)
		}
		m.ContextWindow = *raw.ContextWindow
	}
	if raw.Price != nil {
		m.Price = b.price(at("price"), raw.Price)
	}
	if raw.ReasoningEfforts != nil {
		m.ReasoningEfforts = b.efforts(at("reasoning_efforts"), *raw.ReasoningEfforts)
	}
	if raw.ReasoningEffort != nil {
		m.ReasoningEffort = *raw.ReasoningEffort
		if err := checkWord(m.ReasoningEffort); err != nil {
			b.fail(at("reasoning_effort"), "%v", err)
		}
	}
	if m.ReasoningEffort != "" && len(m.ReasoningEfforts) > 0 && !slices.Contains(m.ReasoningEfforts, m.ReasoningEffort) {
		key := at("reasoning_effort")
		if raw.ReasoningEffort == nil {
			key = at("reasoning_efforts")
		}
		b.fail(key, "reasoning_effort %q is not among reasoning_efforts %q", m.ReasoningEffort, m.ReasoningEfforts)
	}
	if raw.Images != nil {
		m.Images = *raw.Images
	}
	if raw.Thinking != nil {
		m.Thinking = *raw.Thinking
		if m.Thinking != llm.ThinkingEnabled && m.Thinking != llm.ThinkingDisabled {
			b.fail(at("thinking"), "must be %q or %q, not %q", llm.ThinkingEnabled, llm.ThinkingDisabled, m.Thinking)
		}
	}
	return m
}

// setString sets *dst to a given, non-empty value.
func (b *builder) setString(key []string, raw *string, dst *string) {
	if raw == nil {
		return
	}
	if strings.TrimSpace(*raw) == "" {
		b.fail(key, "must not be empty")
		return
	}
	*dst = *raw
}

// price is a given price: input and output required, cached_input
// defaulting to input, every amount a finite number >= 0.
func (b *builder) price(key []string, raw *rawPrice) *Price {
	at := func(field string) []string { return append(slices.Clone(key), field) }
	amount := func(field string, v *float64) float64 {
		if v == nil {
			b.fail(key, "%s is missing (a price per million tokens)", field)
			return 0
		}
		if *v < 0 || math.IsNaN(*v) || math.IsInf(*v, 0) {
			b.fail(at(field), "must be a price per million tokens >= 0, not %v", *v)
		}
		return *v
	}
	p := &Price{Input: amount("input", raw.Input), Output: amount("output", raw.Output)}
	p.CachedInput = p.Input
	if raw.CachedInput != nil {
		p.CachedInput = amount("cached_input", raw.CachedInput)
	}
	switch {
	case raw.Currency == nil:
		b.fail(key, "currency is missing (an ISO 4217 code such as USD)")
	case !isCurrencyCode(*raw.Currency):
		b.fail(at("currency"), "must be an ISO 4217 code such as USD, not %q", *raw.Currency)
	default:
		p.Currency = *raw.Currency
	}
	return p
}

// efforts is a list of reasoning efforts: lower-case words, each once.
func (b *builder) efforts(key []string, list []string) []string {
	for i, e := range list {
		if err := checkWord(e); err != nil {
			b.fail(key, "%v", err)
		} else if slices.Contains(list[:i], e) {
			b.fail(key, "%q is listed twice", e)
		}
	}
	return slices.Clone(list)
}

func modelNames(models []Model) []string {
	names := make([]string, len(models))
	for i, m := range models {
		names[i] = m.Name
	}
	return names
}
