package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestLoadExample(t *testing.T) {
	f, err := Load("testdata/example.toml")
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != "testdata/example.toml" || f.DefaultModel != "deepseek-v4-flash" || f.DefaultPreset != "workspace-write" {
		t.Errorf("file = %q, model %q, preset %q", f.Path, f.DefaultModel, f.DefaultPreset)
	}
	if got, want := modelNames(f.Models), []string{"qwen", "sonnet", "deepseek-v4-pro", "deepseek-v4-flash", "gpt-4.1"}; !slices.Equal(got, want) {
		t.Errorf("models = %q, want %q (file order, then the built-ins not overridden)", got, want)
	}
	if got, want := f.ProviderNames(), []string{"deepseek", "local", "openai", "openrouter"}; !slices.Equal(got, want) {
		t.Errorf("providers = %q, want %q", got, want)
	}
	for _, tt := range []struct {
		name string
		want Model
	}{
		{"qwen", Model{Name: "qwen", ID: "qwen2.5-coder:32b", DisplayName: "Qwen 2.5 Coder (local)", Provider: "local", ContextWindow: 32768}},
		{"sonnet", Model{Name: "sonnet", ID: "anthropic/claude-sonnet-4", DisplayName: "sonnet", Provider: "openrouter", ContextWindow: 200000,
			Price: &Price{Input: 3, CachedInput: 0.3, Output: 15, Currency: "USD"}, Images: true}},
		{"deepseek-v4-pro", Model{Name: "deepseek-v4-pro", ID: "deepseek-v4-pro", DisplayName: "DeepSeek V4 Pro", Provider: "deepseek",
			ContextWindow: 1_000_000, Price: &Price{Input: 1.32, CachedInput: 0.044, Output: 3.96, Currency: "USD"},
			ReasoningEfforts: []string{"high", "max"}, ReasoningEffort: "max", Thinking: "enabled"}},
	} {
		got, ok := f.Model(tt.name)
		if !ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Model(%q) = %+v, %v\nwant %+v", tt.name, got, ok, tt.want)
		}
	}
	if p, _ := f.Provider("local"); !reflect.DeepEqual(p, Provider{Name: "local", BaseURL: "http://localhost:11434/v1", Keyless: true}) {
		t.Errorf("local = %+v", p)
	}
	if p, _ := f.Provider("openrouter"); !reflect.DeepEqual(p, Provider{Name: "openrouter", BaseURL: "https://openrouter.ai/api/v1", APIKeyEnv: []string{"OPENROUTER_API_KEY"}}) {
		t.Errorf("openrouter = %+v", p)
	}
}

func TestDefault(t *testing.T) {
	f := Default()
	if f.Path != "" || f.DefaultModel != "" || f.DefaultPreset != "" {
		t.Errorf("Default() = %+v", f)
	}
	if got, want := modelNames(f.Models), []string{"deepseek-v4-flash", "deepseek-v4-pro", "gpt-4.1"}; !slices.Equal(got, want) {
		t.Errorf("models = %q, want %q", got, want)
	}
	for _, m := range f.Models {
		if m.Price == nil || m.ContextWindow <= 0 || m.Price.Currency != "USD" || m.Price.CachedInput > m.Price.Input {
			t.Errorf("built-in %s: %+v, price %+v", m.Name, m, m.Price)
		}
		if _, ok := f.Providers[m.Provider]; !ok {
			t.Errorf("built-in %s: unknown provider %q", m.Name, m.Provider)
		}
	}
	if p, _ := f.Provider("deepseek"); !slices.Equal(p.APIKeyEnv, []string{"DSH_API_KEY", "DEEPSEEK_API_KEY"}) || p.BaseURL != "https://api.deepseek.com" {
		t.Errorf("deepseek = %+v", p)
	}
	// What Model returns is a copy.
	m, _ := f.Model("deepseek-v4-pro")
	m.ReasoningEfforts[0], m.Price.Input = "low", 99
	if again, _ := f.Model("deepseek-v4-pro"); again.ReasoningEfforts[0] != "high" || again.Price.Input == 99 {
		t.Error("changing a returned Model changed the File")
	}
	if _, ok := f.Model("nope"); ok {
		t.Error(`Model("nope") found a model`)
	}
}

func TestLoadOverrides(t *testing.T) {
	f, err := Parse("c.toml", []byte(`
[providers.deepseek]
base_url = "https://proxy.example/v1"
api_key_env = ["MY_KEY", "DSH_API_KEY"]

[models.deepseek-v4-flash]
context_window = 128000
price = { input = 1, output = 2, currency = "CNY" }
reasoning_efforts = []
`))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := f.Provider("deepseek")
	if p.BaseURL != "https://proxy.example/v1" || !slices.Equal(p.APIKeyEnv, []string{"MY_KEY", "DSH_API_KEY"}) {
		t.Errorf("deepseek = %+v", p)
	}
	m, _ := f.Model("deepseek-v4-flash")
	want := Model{Name: "deepseek-v4-flash", ID: "deepseek-v4-flash", DisplayName: "DeepSeek V4 Flash", Provider: "deepseek",
		ContextWindow: 128000, Price: &Price{Input: 1, CachedInput: 1, Output: 2, Currency: "CNY"}, ReasoningEfforts: []string{}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("model = %+v\nwant %+v", m, want)
	}
	if got := modelNames(f.Models); got[0] != "deepseek-v4-flash" || len(got) != 3 {
		t.Errorf("models = %q", got)
	}
}

// Every bad file is an error naming the file, the line and the key.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		toml string
		want []string // each a whole line of the error
	}{
		{"syntax", "model = \n", []string{"c.toml:1:9: unexpected character U+000A at start of value"}},
		{"unknown top-level key", "modle = 'x'\n", []string{"c.toml:1: modle: unknown key"}},
		{"unknown keys, each reported", "[models.qwen]\nprovider = 'deepseek'\ncontxt_window = 1\nprice = { input = 1, output = 1, currency = 'USD', cache = 1 }\n",
			[]string{"c.toml:3: models.qwen.contxt_window: unknown key", "c.toml:4: models.qwen.price.cache: unknown key"}},
		{"unknown table", "\n[modls.qwen]\n", []string{"c.toml:2: modls.qwen: unknown table"}},
		{"a table for a string", "\n[model.qwen]\n", []string{"c.toml:2: model.qwen: cannot store a table in a string"}},
		{"wrong type", "[models.qwen]\nprovider = 'deepseek'\ncontext_window = '32k'\n",
			[]string{"c.toml:3: models.qwen.context_window: want an integer, not a string"}},
		{"wrong type in a list", "[models.\"a.b\"]\nreasoning_efforts = ['high', 2]\n",
			[]string{`c.toml:2: models."a.b".reasoning_efforts: want a string, not an integer`}},
		{"a float for an integer", "[models.qwen]\ncontext_window = 1.5\n",
			[]string{"c.toml:2: models.qwen.context_window: want an integer, not a float"}},
		{"an inline table for a string", "model = { a = 1 }\n", []string{"c.toml:1: model: want a string, not an inline table"}},
		{"an array of tables", "[[models]]\n", []string{"c.toml:1: models: cannot store an array table in a map"}},
		{"an MCP server with command and url", "[mcp_servers.docs]\ncommand = 'x'\nurl = 'https://x'\n",
			[]string{"c.toml:1: mcp_servers.docs: give command (a stdio server) or url (a remote one), not both"}},
		{"an MCP server with neither", "\n[mcp_servers.docs]\nargs = ['a']\n",
			[]string{"c.toml:2: mcp_servers.docs: give command (a stdio server) or url (a remote one)"}},
		{"an MCP server's bad url and transport", "[mcp_servers.web]\nurl = 'ftp://x'\ntransport = 'ws'\n",
			[]string{`c.toml:2: mcp_servers.web.url: "ftp://x" is not an http(s) URL`, `c.toml:3: mcp_servers.web.transport: unknown transport "ws" (want http or sse)`}},
		{"an MCP server's unknown key", "[mcp_servers.docs]\ncmd = 'x'\n", []string{"c.toml:2: mcp_servers.docs.cmd: unknown key"}},
		{"a language server without a command", "[language_servers.zls]\nextensions = ['.zig']\n",
			[]string{`c.toml:1: language_servers.zls.command: a language server needs a command: the program and its arguments, such as ["gopls"]`}},
		{"a language server's bad extension", "[language_servers.zls]\ncommand = ['zls']\nextensions = ['zig']\n",
			[]string{`c.toml:3: language_servers.zls.extensions: "zig" is not a file name extension (like ".go")`}},
		{"a language server's bad env name", "[language_servers.zls]\ncommand = ['zls']\nextensions = ['.zig']\nenv = { 'A=B' = 'x' }\n",
			[]string{`c.toml:4: language_servers.zls.env."A=B": "A=B" cannot be an environment variable name`}},
		{"unknown provider", "\n[models.qwen]\nprovider = 'locl'\n",
			[]string{`c.toml:3: models.qwen.provider: unknown provider "locl" (known: deepseek, openai)`}},
		{"no provider", "[models.qwen]\nid = 'qwen'\n", []string{"c.toml:1: models.qwen: provider is missing: name one of deepseek, openai"}},
		{"empty id", "[models.qwen]\nprovider = 'openai'\nid = ' '\n", []string{"c.toml:3: models.qwen.id: must not be empty"}},
		{"context window 0", "[models.deepseek-v4-pro]\ncontext_window = 0\n",
			[]string{"c.toml:2: models.deepseek-v4-pro.context_window: must be a positive number of tokens, not 0"}},
		{"a name with a dot, unquoted", "[models.gpt-4.1]\n", []string{`c.toml:1: models.gpt-4.1: unknown table (a name with a dot needs quotes: [models."gpt-4.1"])`}},
		{"negative price", "[models.\"gpt-4.1\"]\nprice = { input = -1, output = 8, currency = 'USD' }\n",
			[]string{`c.toml:2: models."gpt-4.1".price.input: must be a price per million tokens >= 0, not -1`}},
		{"nan price", "[models.\"gpt-4.1\"]\nprice = { input = nan, output = 8, currency = 'USD' }\n",
			[]string{`c.toml:2: models."gpt-4.1".price.input: must be a price per million tokens >= 0, not NaN`}},
		{"price without output or currency", "[models.\"gpt-4.1\".price]\ninput = 2\n",
			[]string{`c.toml:1: models."gpt-4.1".price: output is missing (a price per million tokens)`,
				`c.toml:1: models."gpt-4.1".price: currency is missing (an ISO 4217 code such as USD)`}},
		{"bad currency", "[models.\"gpt-4.1\"]\nprice = { input = 2, output = 8, currency = '$' }\n",
			[]string{`c.toml:2: models."gpt-4.1".price.currency: must be an ISO 4217 code such as USD, not "$"`}},
		{"effort not offered", "[models.deepseek-v4-pro]\n\nreasoning_effort = 'low'\n",
			[]string{`c.toml:3: models.deepseek-v4-pro.reasoning_effort: reasoning_effort "low" is not among reasoning_efforts ["high" "max"]`}},
		{"efforts no longer offering the effort", "[models.m]\nprovider = 'openai'\nreasoning_effort = 'high'\nreasoning_efforts = ['low']\n",
			[]string{`c.toml:3: models.m.reasoning_effort: reasoning_effort "high" is not among reasoning_efforts ["low"]`}},
		{"effort not a word", "[models.m]\nprovider = 'openai'\nreasoning_efforts = ['High', 'max', 'max']\n",
			[]string{`c.toml:3: models.m.reasoning_efforts: "High" is not a lower-case word such as high`,
				`c.toml:3: models.m.reasoning_efforts: "max" is listed twice`}},
		{"bad thinking", "[models.deepseek-v4-flash]\nthinking = 'on'\n",
			[]string{`c.toml:2: models.deepseek-v4-flash.thinking: must be "enabled" or "disabled", not "on"`}},
		{"default model not found", "model = 'gpt-5'\n",
			[]string{`c.toml:1: model: unknown model "gpt-5" (known: deepseek-v4-flash, deepseek-v4-pro, gpt-4.1)`}},
		{"bad preset", "\npreset = 'yolo'\n",
			[]string{`c.toml:2: preset: unknown permission preset "yolo" (want read-only, workspace-write, full-access or plan)`}},
		{"provider without base_url", "[providers.local]\nkeyless = true\n",
			[]string{"c.toml:1: providers.local: base_url is missing: give the server's OpenAI-compatible API root, such as http://localhost:11434/v1"}},
		{"bad base_url", "[providers.local]\nbase_url = 'localhost:11434'\n",
			[]string{`c.toml:2: providers.local.base_url: want an http:// or https:// URL with a host, not "localhost:11434"`}},
		{"bad api_key_env", "[providers.deepseek]\napi_key_env = 'MY-KEY'\n",
			[]string{`c.toml:2: providers.deepseek.api_key_env: "MY-KEY" is not an environment variable name (letters, digits and _, not starting with a digit)`}},
		{"api_key_env of the wrong type", "[providers.deepseek]\napi_key_env = ['A', 1]\n",
			[]string{"c.toml:2: providers.deepseek.api_key_env: want a variable name or a list of them"}},
		{"a relative sandbox path", "[sandbox]\nwritable = ['/opt/cache', 'build']\ndeny_read = ['~/.secrets', 'x']\n",
			[]string{`c.toml:2: sandbox.writable: "build" is neither absolute nor under ~/ (commands run in many directories)`,
				`c.toml:3: sandbox.deny_read: "x" is neither absolute nor under ~/ (commands run in many directories)`}},
		{"a sandbox key misspelt", "[sandbox]\nnetwrok = true\n", []string{"c.toml:2: sandbox.netwrok: unknown key"}},
		{"subagent bounds out of range", "[subagents]\nmax_parallel = 0\nmax_depth = 9\n",
			[]string{"c.toml:2: subagents.max_parallel: 0 is out of bounds: want 1 to 16",
				"c.toml:3: subagents.max_depth: 9 is out of bounds: want 1 to 3"}},
		{"errors in line order", "model = 'x'\n[models.m]\nprovider = 'p'\n",
			[]string{`c.toml:1: model: unknown model "x" (known: m, deepseek-v4-flash, deepseek-v4-pro, gpt-4.1)`,
				`c.toml:3: models.m.provider: unknown provider "p" (known: deepseek, openai)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("c.toml", []byte(tt.toml))
			if err == nil {
				t.Fatalf("no error; got %+v", f)
			}
			if got := strings.Split(err.Error(), "\n"); !slices.Equal(got, tt.want) {
				t.Errorf("error:\n%s\nwant:\n%s", err, strings.Join(tt.want, "\n"))
			}
			var e *Error
			if !errors.As(err, &e) || e.Path != "c.toml" || e.Line == 0 {
				t.Errorf("error %#v is not an *Error with a line", err)
			}
		})
	}
}

func TestLoadFiles(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.toml")
	if _, err := Load(missing); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "config file: open "+missing) {
		t.Errorf("Load(missing) = %v, want a not-exist error naming the file", err)
	}
	f, err := LoadOrDefault(missing)
	if err != nil || !reflect.DeepEqual(f, Default()) {
		t.Errorf("LoadOrDefault(missing) = %+v, %v; want Default()", f, err)
	}
	if _, err := LoadOrDefault(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("LoadOrDefault(a directory) = %v", err)
	}
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("preset = 'yolo'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrDefault(bad); err == nil || !strings.HasPrefix(err.Error(), bad+":1: preset: ") {
		t.Errorf("LoadOrDefault(bad) = %v", err)
	}
	empty := filepath.Join(dir, "empty.toml")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if f, err := Load(empty); err != nil || f.Path != empty || len(f.Models) != 3 {
		t.Errorf("Load(empty) = %+v, %v", f, err)
	}
}

func BenchmarkLoadExample(b *testing.B) {
	data, err := os.ReadFile("testdata/example.toml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Parse("example.toml", data); err != nil {
			b.Fatal(err)
		}
	}
}

func TestServersOfTheFile(t *testing.T) {
	f, err := Parse("c.toml", []byte(`
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
env = { DOCS_TOKEN = "t" }

[mcp_servers.web]
url = "https://mcp.example.com/sse"
transport = "sse"
headers = { Authorization = "Bearer k" }

[language_servers.zls]
command = ["zls"]
extensions = [".zig", ".zon"]
env = { ZIG_GLOBAL_CACHE_DIR = "/tmp/zig" }

[language_servers.clangd]
disabled = true
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []MCPServer{
		{Name: "docs", Command: "npx", Args: []string{"-y", "docs-mcp"}, Env: map[string]string{"DOCS_TOKEN": "t"}, Transport: "stdio"},
		{Name: "web", URL: "https://mcp.example.com/sse", Headers: map[string]string{"Authorization": "Bearer k"}, Transport: "sse"},
	}
	if !reflect.DeepEqual(f.MCPServers, want) {
		t.Errorf("MCP servers = %+v, want %+v", f.MCPServers, want)
	}
	wantLS := []LanguageServer{
		{Name: "zls", Command: []string{"zls"}, Extensions: []string{".zig", ".zon"}, LanguageID: "zig", Env: map[string]string{"ZIG_GLOBAL_CACHE_DIR": "/tmp/zig"}},
		{Name: "clangd", Disabled: true},
	}
	if !reflect.DeepEqual(f.LanguageServers, wantLS) {
		t.Errorf("language servers = %+v, want %+v", f.LanguageServers, wantLS)
	}
}
