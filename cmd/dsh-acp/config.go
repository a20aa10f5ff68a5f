package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/tools/shell"
)

// errHelp means --help was asked for and printed.
var errHelp = errors.New("help")

// config is the program's configuration: flags win over the environment.
type config struct {
	command string
	llm     llm.Config
	preset  policy.Preset
	// stateDir is reserved for the session store; nothing is stored yet.
	stateDir string
	// configFile is the config file; when it was given (configGiven), it
	// must be readable, but no setting is read from it yet.
	configFile    string
	configGiven   bool
	shellEnvAllow []string
	logFile       string
	logLevel      slog.Level
	demoVerbose   bool
}

// usage is the help text; its verbs are the flags' defaults and the
// default model.
const usage = `dsh-acp — a coding agent for editors, over the Agent Client Protocol.

Usage:
  dsh-acp [flags]          serve ACP on stdin/stdout (what an editor launches)
  dsh-acp demo [flags]     run a scripted session in a temporary workspace
  dsh-acp version          print the version

Flags:
%s
Environment (flags of the same names win):
  DSH_API_KEY          the model server's API key (falls back to DEEPSEEK_API_KEY)
  DSH_BASE_URL         the OpenAI-compatible server (default ` + llm.DefaultBaseURL + `)
  DSH_MODEL            the model (default %s)
  DSH_MODEL_SCRIPT     a JSONL model script; selects the scripted model
  DSH_THINKING         enabled or disabled: sent as thinking {"type": ...}
  DSH_REASONING_EFFORT sent as reasoning_effort (DeepSeek: high or max)
  DSH_STATE_DIR        reserved for stored sessions; nothing is stored yet
  DSH_CONFIG           a config file; when given it must be readable, but no
                       setting is read from it yet
  DSH_SHELL_ENV_ALLOW  comma-separated names or patterns (GITHUB_TOKEN,AWS_*) of
                       variables the bash tool may see although their names
                       look secret (KEY, TOKEN, SECRET, PASSWORD, AUTH, ...)

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
	case "serve", "demo", "version", "help":
	default:
		return cfg, fmt.Errorf("unknown command %q (want serve, demo or version; see --help)", cfg.command)
	}
	cfg.llm = llm.ConfigFromEnv(env.get)
	cfg.stateDir = defaultDir(env, "DSH_STATE_DIR", "XDG_STATE_HOME", ".local/state", "")
	cfg.configFile = defaultDir(env, "DSH_CONFIG", "XDG_CONFIG_HOME", ".config", "config.toml")
	cfg.configGiven = env.get("DSH_CONFIG") != ""

	fs := flag.NewFlagSet("dsh-acp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.llm.BaseURL, "base-url", cfg.llm.BaseURL, "the OpenAI-compatible model server")
	fs.StringVar(&cfg.llm.Model, "model", cfg.llm.Model, "the model")
	fs.StringVar(&cfg.llm.ModelScript, "model-script", cfg.llm.ModelScript, "a JSONL model script (selects the scripted model)")
	fs.StringVar(&cfg.llm.Thinking, "thinking", cfg.llm.Thinking, "send thinking: enabled or disabled (DeepSeek's V4 models think unless disabled); unset sends nothing")
	fs.StringVar(&cfg.llm.ReasoningEffort, "reasoning-effort", cfg.llm.ReasoningEffort, "send reasoning_effort (DeepSeek: high or max); unset sends nothing")
	fs.Func("state-dir", "a `directory` reserved for stored sessions: accepted, but nothing is stored yet", func(dir string) error {
		cfg.stateDir = dir
		return nil
	})
	fs.Func("config", "a config `file`: it must be readable, but no setting is read from it yet", func(path string) error {
		cfg.configFile, cfg.configGiven = path, true
		return nil
	})
	preset := fs.String("permission", string(policy.WorkspaceWrite), "the permission preset: read-only, workspace-write or full-access")
	fs.StringVar(&cfg.logFile, "log-file", "", "write logs to this file instead of stderr")
	level := fs.String("log-level", "info", "log level: debug, info, warn or error")
	showVersion := fs.Bool("version", false, "print the version and exit")
	help := fs.Bool("help", false, "print this help and exit")
	fs.BoolVar(&cfg.demoVerbose, "verbose", false, "demo: also print every protocol frame")
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
	allow, err := shell.ParseEnvAllow(env.get("DSH_SHELL_ENV_ALLOW"))
	if err != nil {
		return cfg, err
	}
	cfg.shellEnvAllow = allow
	if cfg.configGiven {
		if err := checkConfigFile(cfg.configFile); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// checkConfigFile fails unless path is a readable file. No setting is
// read from it yet; the check keeps a mistyped path from passing silently
// until the issue that gives the file meaning lands.
func checkConfigFile(path string) error {
	if _, err := os.ReadFile(path); err != nil {
		return fmt.Errorf("config file: %w (give a readable file with --config or DSH_CONFIG, or leave both unset: no setting is read from it yet)", err)
	}
	return nil
}

// defaultDir is the variable's value, or <xdg or ~/fallback>/dsh-acp/leaf.
func defaultDir(env environ, name, xdg, fallback, leaf string) string {
	if v := env.get(name); v != "" {
		return v
	}
	base := env.get(xdg)
	if base == "" {
		home := env.get("HOME")
		if home == "" {
			return ""
		}
		base = filepath.Join(home, fallback)
	}
	return filepath.Join(base, "dsh-acp", leaf)
}
