package lsp

import (
	"context"
	"log/slog"
	"os"
	"time"
)

// The defaults Options falls back to for its zero fields.
const (
	DefaultSettle       = 2 * time.Second  // how long AfterWrite waits for diagnostics
	DefaultStartTimeout = 20 * time.Second // how long a server may take to initialize
	DefaultCallTimeout  = time.Minute      // how long a definition, references or symbols request may take once its server has loaded
	DefaultLoadTimeout  = 2 * time.Minute  // how long a tool waits for a server that is still loading
)

// Options configure a Manager. Zero fields take the Default… values.
type Options struct {
	// Roots are the workspace roots, absolute. A server runs per root; the
	// first root is the working directory relative paths are resolved
	// against and shown relative to.
	Roots []string
	// Servers are the language servers to use; nil means Defaults().
	Servers []ServerConfig
	// Logger receives the servers' log messages and the Manager's own
	// diagnostics of its work; nil discards them.
	Logger *slog.Logger
	// Settle bounds how long the diagnostics tool waits for a server's
	// diagnostics of a file (as CallTimeout counts: not while the server
	// loads), and AfterWrite's whole wait, a server's start and load
	// included: a write never waits longer for a server.
	Settle time.Duration
	// StartTimeout bounds how long a server may take to start and answer
	// initialize.
	StartTimeout time.Duration
	// CallTimeout bounds one definition, references or symbols request
	// while its server reports no work in progress: time the server
	// spends loading (its $/progress work, such as gopls's "Setting up
	// workspace") does not count, and the budget starts afresh when the
	// load ends. Settle, for the diagnostics tool, counts the same way.
	CallTimeout time.Duration
	// LoadTimeout bounds how long a tool waits for a server that is still
	// loading; a tool that gives up says so in its result.
	LoadTimeout time.Duration
	// EnvAllow lets secret-looking variables of the agent's environment
	// into the servers' environments: names or path.Match patterns,
	// matched case-insensitively (see secrets.ParseAllow). The agent's
	// model keys are never let through.
	EnvAllow []string
	// ReadFile reads a file the tools ask about (to sync it before a
	// query) or a server points to (to show its line); nil reads the disk.
	// A session whose file tools go through the editor passes the same
	// file system here, so servers see the buffers the tools see.
	ReadFile func(ctx context.Context, path string) ([]byte, error)
	// Report is told, once each time, that a server is off for this
	// session: it could not start, or it stopped again after its restart.
	// The message names the server and why. It is called from no lock of
	// the Manager and should not block for long; nil tells no one.
	Report func(message string)
}

// ServerConfig says how to run one language server and which files it
// serves.
type ServerConfig struct {
	// Name is what notes and logs call the server ("gopls").
	Name string
	// Command is the program and its arguments; the program is looked up
	// on PATH when it has no slash.
	Command []string
	// Extensions are the file name extensions the server serves, with the
	// dot (".go").
	Extensions []string
	// LanguageID is the LSP language id of the files ("go"). Servers that
	// serve several languages get it per extension from languageIDs.
	LanguageID string
	// Env is set in the server's environment, on top of the agent's own
	// without secrets (secrets.Withheld: the model keys never, other
	// secret-looking names unless Options.EnvAllow lets them through):
	// what Env names always passes.
	Env map[string]string
}

// Defaults returns the built-in servers. Each is used only when its
// program is found on PATH; otherwise the first file of its type gets a
// note saying what to install.
func Defaults() []ServerConfig {
	return []ServerConfig{
		{Name: "gopls", Command: []string{"gopls"}, Extensions: []string{".go"}, LanguageID: "go"},
		{Name: "typescript-language-server", Command: []string{"typescript-language-server", "--stdio"},
			Extensions: []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}, LanguageID: "typescript"},
		{Name: "pyright-langserver", Command: []string{"pyright-langserver", "--stdio"}, Extensions: []string{".py", ".pyi"}, LanguageID: "python"},
		{Name: "rust-analyzer", Command: []string{"rust-analyzer"}, Extensions: []string{".rs"}, LanguageID: "rust"},
		{Name: "clangd", Command: []string{"clangd"},
			Extensions: []string{".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"}, LanguageID: "cpp"},
	}
}

// languageID is the LSP language id of a file with extension ext served
// by cfg: cfg.LanguageID, refined for servers that serve several languages.
func languageID(cfg ServerConfig, ext string) string {
	switch ext {
	case ".js", ".mjs", ".cjs":
		return "javascript"
	case ".jsx":
		return "javascriptreact"
	case ".tsx":
		return "typescriptreact"
	case ".c", ".h":
		if cfg.LanguageID == "cpp" {
			return "c"
		}
	}
	return cfg.LanguageID
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	if o.Servers == nil {
		o.Servers = Defaults()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Report == nil {
		o.Report = func(string) {}
	}
	if o.Settle <= 0 {
		o.Settle = DefaultSettle
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.LoadTimeout <= 0 {
		o.LoadTimeout = DefaultLoadTimeout
	}
	if o.ReadFile == nil {
		o.ReadFile = func(_ context.Context, path string) ([]byte, error) { return os.ReadFile(path) } //nolint:gosec // the tools' own files
	}
	return o
}
