package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"strings"

	configfile "github.com/dsh-acp/dsh-acp/config"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/secrets"
)

// errHelp means --help was asked for and printed.
var errHelp = errors.New("help")

// config is the program's configuration: flags win over the environment,
// which wins over the config file.
type config struct {
	command string
	llm     llm.Config
	// baseURLGiven is set when --base-url or DSH_BASE_URL named the model
	// server: the default model is then served there, with DSH_API_KEY.
	baseURLGiven bool
	// modelGiven is set when --model or DSH_MODEL named llm.Model; else
	// the config file's default model applies (see modelName).
	modelGiven bool
	// preset is --permission, else the config file's preset, else
	// workspace-write.
	preset policy.Preset
	// stateDir is where sessions are stored.
	stateDir string
	// configFile is the config file; configGiven is set when --config or
	// DSH_CONFIG named it (then it must exist; the default need not).
	configFile  string
	configGiven bool
	// settings is what the config file says, over the built-in providers
	// and models; nil for the version and help commands.
	settings *configfile.File
	// env looks up API keys when they are needed.
	env           environ
	shellEnvAllow []string
	logFile       string
	logLevel      slog.Level
	demoVerbose   bool
	// provider is login's and logout's --provider; allProviders is
	// logout's --all.
	provider     string
	allProviders bool
}

// usage is the help text; its verbs are the flags' defaults and the
// default model.
const usage = `dsh-acp — a coding agent for editors, over the Agent Client Protocol.

Usage:
  dsh-acp [flags]          serve ACP on stdin/stdout (what an editor launches)
  dsh-acp demo [flags]     run a scripted session in a temporary workspace
  dsh-acp login [--provider NAME]
                           store an API key, typed with the input hidden (or
                           one line from stdin), in the credentials file
  dsh-acp logout [--provider NAME | --all]
                           remove a stored API key
  dsh-acp version          print the version, the commit and the Go version

Flags:
%s
Environment (flags of the same names win):
  DSH_API_KEY          the model server's API key (falls back to DEEPSEEK_API_KEY)
  DSH_BASE_URL         the OpenAI-compatible server (default ` + llm.DefaultBaseURL + `)
  DSH_MODEL            the model (default: the config file's model, else %s)
  DSH_MODEL_SCRIPT     a JSONL model script; selects the scripted model
  DSH_THINKING         enabled or disabled: sent as thinking {"type": ...}
  DSH_REASONING_EFFORT sent as reasoning_effort (DeepSeek: high or max)
  DSH_STATE_DIR        where sessions, remembered approvals and checkpoints are
                       kept (default $XDG_STATE_HOME/dsh-acp, else
                       ~/.local/state/dsh-acp; macOS: ~/Library/Application
                       Support/dsh-acp/state; Windows: %%LOCALAPPDATA%%\dsh-acp)
  DSH_CONFIG           the config file: providers, models, prices, the default
                       model and preset, MCP and language servers
                       (default config.toml in $XDG_CONFIG_HOME/dsh-acp, else
                       ~/.config/dsh-acp; macOS: ~/Library/Application
                       Support/dsh-acp; Windows: %%APPDATA%%\dsh-acp)
  DSH_SHELL            the bash tool's shell (default bash; on Windows Git for
                       Windows' bash, else pwsh, else Windows PowerShell)
  OPENAI_API_KEY       the key of the built-in openai provider
  DSH_SHELL_ENV_ALLOW  comma-separated names or patterns (GITHUB_TOKEN,AWS_*) of
                       variables the bash tool may see although their names
                       look secret (KEY, TOKEN, SECRET, PASSWORD, AUTH, ...)

API keys: a provider's environment variables win; else the key ` + "`dsh-acp login`" + `
stored in credentials.json beside the config file.

stdout carries only protocol frames; logs go to stderr or --log-file.
SIGINT or SIGTERM ends every turn as cancelled, stops every command and exits 0;
a second signal exits at once.
`

func parseConfig(args []string, env environ, stderr io.Writer) (config, error) {
	cfg := config{command: "serve"}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cfg.command, args = args[0], args[1:]
	}
	switch cfg.command {
	case "serve", "demo", "login", "logout", "version", "help":
	default:
		return cfg, fmt.Errorf("unknown command %q (want serve, demo, login, logout or version; see --help)", cfg.command)
	}
	cfg.env = env
	cfg.llm = llm.ConfigFromEnv(env.get)
	cfg.modelGiven = strings.TrimSpace(env.get(llm.EnvModel)) != ""
	cfg.stateDir = env.get("DSH_STATE_DIR")
	if cfg.stateDir == "" {
		cfg.stateDir, _ = configfile.StateDir(env.get) // "" when there is no state directory
	}
	cfg.configFile, cfg.configGiven = env.get("DSH_CONFIG"), env.get("DSH_CONFIG") != ""
	if !cfg.configGiven {
		cfg.configFile, _ = configfile.DefaultPath(env.get) // "" when there is no config directory
	}

	fs := flag.NewFlagSet("dsh-acp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.llm.BaseURL, "base-url", cfg.llm.BaseURL, "the OpenAI-compatible model server")
	fs.Func("model", "the `model` (default: the config file's model, else "+llm.DefaultModel+")", func(model string) error {
		if strings.TrimSpace(model) == "" {
			return errors.New("an empty model name")
		}
		cfg.llm.Model = model
		return nil
	})
	fs.StringVar(&cfg.llm.ModelScript, "model-script", cfg.llm.ModelScript, "a JSONL model script (selects the scripted model)")
	fs.StringVar(&cfg.llm.Thinking, "thinking", cfg.llm.Thinking, "send thinking: enabled or disabled (DeepSeek's V4 models think unless disabled); unset sends nothing")
	fs.StringVar(&cfg.llm.ReasoningEffort, "reasoning-effort", cfg.llm.ReasoningEffort, "send reasoning_effort (DeepSeek: high or max); unset sends nothing")
	fs.Func("state-dir", "the `directory` where sessions, remembered approvals and checkpoints are kept", func(dir string) error {
		cfg.stateDir = dir
		return nil
	})
	fs.Func("config", "the config `file` (default $XDG_CONFIG_HOME/dsh-acp/config.toml)", func(path string) error {
		cfg.configFile, cfg.configGiven = path, true
		return nil
	})
	preset := fs.String("permission", string(policy.WorkspaceWrite), "the permission preset: read-only, workspace-write, full-access or plan")
	fs.StringVar(&cfg.logFile, "log-file", "", "write logs to this file instead of stderr")
	level := fs.String("log-level", "info", "log level: debug, info, warn or error")
	showVersion := fs.Bool("version", false, "print the version, the commit and the Go version, and exit")
	help := fs.Bool("help", false, "print this help and exit")
	fs.BoolVar(&cfg.demoVerbose, "verbose", false, "demo: also print every protocol frame")
	fs.StringVar(&cfg.provider, "provider", "", "login, logout: the `name` of the provider whose key to store or remove (default: the default model's provider)")
	fs.BoolVar(&cfg.allProviders, "all", false, "logout: remove every stored key")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			*help = true
		} else {
			return cfg, err
		}
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *help || cfg.command == "help" {
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fmt.Fprintf(stderr, usage, b.String(), llm.DefaultModel)
		return cfg, errHelp
	}
	if *showVersion {
		cfg.command = "version"
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	cfg.modelGiven = cfg.modelGiven || given["model"]
	cfg.baseURLGiven = strings.TrimSpace(env.get(llm.EnvBaseURL)) != "" || given["base-url"]
	if err := checkAccountFlags(cfg, given); err != nil {
		return cfg, err
	}
	p, err := policy.ParsePreset(*preset)
	if err != nil {
		return cfg, err
	}
	cfg.preset = p
	if err := cfg.logLevel.UnmarshalText([]byte(*level)); err != nil {
		return cfg, fmt.Errorf("--log-level: %w", err)
	}
	cfg.llm.Thinking = strings.ToLower(cfg.llm.Thinking)
	cfg.llm.ReasoningEffort = strings.ToLower(cfg.llm.ReasoningEffort)
	if err := cfg.llm.Validate(); err != nil {
		return cfg, err
	}
	allow, err := secrets.ParseAllow(env.get("DSH_SHELL_ENV_ALLOW"))
	if err != nil {
		return cfg, err
	}
	cfg.shellEnvAllow = allow
	if cfg.command == "version" {
		return cfg, nil
	}
	if cfg.settings, err = loadSettings(cfg.configFile, cfg.configGiven); err != nil {
		return cfg, err
	}
	if !given["permission"] && cfg.settings.DefaultPreset != "" {
		cfg.preset = policy.Preset(cfg.settings.DefaultPreset)
	}
	return cfg, nil
}

// loadSettings reads the config file. A file the user named must exist;
// the default one need not, and without it (or without a path: no config
// directory) the built-ins apply.
func loadSettings(path string, given bool) (*configfile.File, error) {
	switch {
	case given:
		f, err := configfile.Load(path)
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%w (named by --config or DSH_CONFIG; leave both unset for the default)", err)
		}
		return f, err
	case path == "":
		return configfile.Default(), nil
	default:
		return configfile.LoadOrDefault(path)
	}
}

// checkAccountFlags refuses --provider and --all where they mean nothing.
func checkAccountFlags(cfg config, given map[string]bool) error {
	switch {
	case given["provider"] && cfg.command != "login" && cfg.command != "logout":
		return errors.New("--provider is for login and logout")
	case given["all"] && cfg.command != "logout":
		return errors.New("--all is for logout")
	case given["all"] && given["provider"]:
		return errors.New("logout takes --provider or --all, not both")
	}
	return nil
}

// modelName is the model to use: --model or DSH_MODEL, else the config
// file's default model, else llm.DefaultModel (which cfg.llm.Model holds
// when nothing named one).
func (c config) modelName() string {
	if !c.modelGiven && c.settings != nil && c.settings.DefaultModel != "" {
		return c.settings.DefaultModel
	}
	return c.llm.Model
}
