package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// errHelp means --help was asked for and printed.
var errHelp = errors.New("help")

// config is the program's configuration: flags win over the environment.
type config struct {
	command     string
	llm         llm.Config
	preset      policy.Preset
	stateDir    string
	configFile  string
	logFile     string
	logLevel    slog.Level
	demoVerbose bool
}

const usage = `dsh-acp — a coding agent for editors, over the Agent Client Protocol.

Usage:
  dsh-acp [flags]          serve ACP on stdin/stdout (what an editor launches)
  dsh-acp demo [flags]     run a scripted session in a temporary workspace
  dsh-acp version          print the version

Flags:
%s
Environment (flags of the same names win):
  DSH_API_KEY        the model server's API key (falls back to DEEPSEEK_API_KEY)
  DSH_BASE_URL       the OpenAI-compatible server (default https://api.deepseek.com)
  DSH_MODEL          the model (default deepseek-chat)
  DSH_MODEL_SCRIPT   a JSONL model script; selects the scripted model
  DSH_STATE_DIR      where sessions are kept (default $XDG_STATE_HOME/dsh-acp)
  DSH_CONFIG         the config file (default $XDG_CONFIG_HOME/dsh-acp/config.toml)

stdout carries only protocol frames; logs go to stderr or --log-file.
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

	fs := flag.NewFlagSet("dsh-acp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.llm.BaseURL, "base-url", cfg.llm.BaseURL, "the OpenAI-compatible model server")
	fs.StringVar(&cfg.llm.Model, "model", cfg.llm.Model, "the model")
	fs.StringVar(&cfg.llm.ModelScript, "model-script", cfg.llm.ModelScript, "a JSONL model script (selects the scripted model)")
	fs.StringVar(&cfg.stateDir, "state-dir", cfg.stateDir, "where sessions are kept")
	fs.StringVar(&cfg.configFile, "config", cfg.configFile, "the config file")
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
		fmt.Fprintf(stderr, usage, b.String())
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
	return cfg, nil
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
