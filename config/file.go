package config

import (
	"slices"
)

// File is the configuration: the built-in providers and models, with
// what a config file adds or overrides. Callers must not modify it; the
// methods return copies.
type File struct {
	// Path is the file read; empty when no file was (Default).
	Path string
	// DefaultModel is the Name of the model the file's `model` key names;
	// empty when it names none (the caller's own default applies).
	DefaultModel string
	// DefaultPreset is the permission preset the file's `preset` key names
	// (read-only, workspace-write, full-access or plan); empty when not set.
	DefaultPreset string
	// Providers are the model servers by name: the built-in deepseek and
	// openai and the file's own.
	Providers map[string]Provider
	// Models are the models the editor's picker offers: the file's, in
	// file order (built-ins it overrides among them), then the built-ins
	// it does not override.
	Models []Model
	// MCPServers are servers every session uses, in file order.
	MCPServers []MCPServer
	// LanguageServers replace, add to or turn off the built-in language
	// servers, in file order.
	LanguageServers []LanguageServer
	// Sandbox widens the commands' kernel sandbox ([sandbox]).
	Sandbox Sandbox
	// Subagents bounds the task tool's child agents ([subagents]).
	Subagents Subagents
}

// Provider is an OpenAI-compatible model server.
type Provider struct {
	// Name is the provider's key in the file (providers.<name>).
	Name string
	// BaseURL is the API root, such as https://api.deepseek.com.
	BaseURL string
	// APIKeyEnv names the environment variables the key is read from, in
	// order; see File.APIKey.
	APIKeyEnv []string
	// Keyless is set for a server that needs no API key (a local one).
	Keyless bool
}

// Model is one model of the catalog.
type Model struct {
	// Name identifies the model in the file (models.<name>), in `model`,
	// and in the editor's picker.
	Name string
	// ID is the model name sent to the server; the file's default is
	// Name.
	ID string
	// DisplayName is what the editor's picker shows; the file's default
	// is Name.
	DisplayName string
	// Provider names the server, a key of File.Providers.
	Provider string
	// ContextWindow is the model's context size in tokens; 0 when unknown.
	ContextWindow int64
	// Price is what its tokens cost; nil when unknown.
	Price *Price
	// ReasoningEfforts are the reasoning_effort values the model takes,
	// offered in the editor; empty when it takes none.
	ReasoningEfforts []string
	// ReasoningEffort is sent as reasoning_effort unless the user picks
	// another; empty sends none (the server's default). When
	// ReasoningEfforts is not empty it is one of them.
	ReasoningEffort string
	// Thinking, when set, is sent as thinking {"type": Thinking}: enabled
	// or disabled. Empty sends nothing.
	Thinking string
	// Images says the model takes images in prompts.
	Images bool
}

// Default is the configuration without a file: the built-in providers
// and models, no default model or preset.
func Default() *File {
	f := &File{Providers: map[string]Provider{}, Models: builtinModels()}
	for _, p := range builtinProviders() {
		f.Providers[p.Name] = p
	}
	return f
}

// Model returns the model called name.
func (f *File) Model(name string) (Model, bool) {
	for _, m := range f.Models {
		if m.Name == name {
			return m.clone(), true
		}
	}
	return Model{}, false
}

// Provider returns the provider called name.
func (f *File) Provider(name string) (Provider, bool) {
	p, ok := f.Providers[name]
	p.APIKeyEnv = slices.Clone(p.APIKeyEnv)
	return p, ok
}

// ProviderNames are the providers' names, sorted.
func (f *File) ProviderNames() []string {
	names := make([]string, 0, len(f.Providers))
	for name := range f.Providers {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// clone is m with its own copies of the slice and the price.
func (m Model) clone() Model {
	m.ReasoningEfforts = slices.Clone(m.ReasoningEfforts)
	if m.Price != nil {
		p := *m.Price
		m.Price = &p
	}
	return m
}
