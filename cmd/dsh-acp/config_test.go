package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	configfile "github.com/dsh-acp/dsh-acp/config"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

func envOf(vars map[string]string) environ {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

func TestParseConfig(t *testing.T) {
	dir := t.TempDir()
	configFile := writeFile(t, filepath.Join(dir, "config.toml"), "model = 'deepseek-v4-pro'\npreset = 'read-only'\n")
	badFile := writeFile(t, filepath.Join(dir, "bad.toml"), "\n[models.qwen]\nprovider = 'local'\n")
	// A config directory holding the default config file.
	xdg := filepath.Join(dir, "xdg")
	writeFile(t, filepath.Join(xdg, "dsh-acp", "config.toml"), "preset = 'full-access'\n")
	badXDG := filepath.Join(dir, "bad-xdg")
	writeFile(t, filepath.Join(badXDG, "dsh-acp", "config.toml"), "preset = 'yolo'\n")
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		check   func(t *testing.T, cfg config)
		wantErr string
	}{
		{
			name: "defaults",
			env:  map[string]string{"HOME": "/home/u", "APPDATA": `C:\a`, "LOCALAPPDATA": `C:\l`},
			check: func(t *testing.T, cfg config) {
				home := func(name string) string {
					return map[string]string{"HOME": "/home/u", "APPDATA": `C:\a`, "LOCALAPPDATA": `C:\l`}[name]
				}
				stateDir, _ := configfile.StateDir(home)
				configFile, _ := configfile.DefaultPath(home)
				if cfg.command != "serve" || cfg.llm.BaseURL != "https://api.deepseek.com" || cfg.llm.Model != llm.DefaultModel ||
					cfg.preset != policy.WorkspaceWrite || cfg.logLevel != slog.LevelInfo ||
					cfg.stateDir != stateDir || cfg.configFile != configFile || stateDir == "" || configFile == "" ||
					cfg.configGiven || cfg.shellEnvAllow != nil || cfg.modelGiven || cfg.modelName() != llm.DefaultModel ||
					cfg.settings == nil || cfg.settings.Path != "" {
					t.Errorf("cfg = %+v", cfg)
				}
			},
		},
		{
			name: "the default config file, read when it exists",
			env:  map[string]string{"XDG_CONFIG_HOME": xdg, "HOME": "/home/u"},
			check: func(t *testing.T, cfg config) {
				if cfg.configFile != filepath.Join(xdg, "dsh-acp", "config.toml") || cfg.configGiven ||
					cfg.settings.Path != cfg.configFile || cfg.preset != policy.FullAccess {
					t.Errorf("cfg = %+v", cfg)
				}
			},
		},
		{
			name: "the config file's model and preset",
			args: []string{"--config", configFile},
			check: func(t *testing.T, cfg config) {
				if cfg.modelName() != "deepseek-v4-pro" || cfg.modelGiven || cfg.preset != policy.ReadOnly || cfg.settings.Path != configFile {
					t.Errorf("cfg = %+v", cfg)
				}
			},
		},
		{
			name: "--model, DSH_MODEL and --permission win over the config file",
			args: []string{"--config", configFile, "--permission", "workspace-write"},
			env:  map[string]string{"DSH_MODEL": "gpt-4.1"},
			check: func(t *testing.T, cfg config) {
				if cfg.modelName() != "gpt-4.1" || !cfg.modelGiven || cfg.preset != policy.WorkspaceWrite {
					t.Errorf("cfg = %+v", cfg)
				}
			},
		},
		{
			name: "--model wins over the config file",
			args: []string{"--model", "deepseek-v4-flash"},
			env:  map[string]string{"DSH_CONFIG": configFile},
			check: func(t *testing.T, cfg config) {
				if cfg.modelName() != "deepseek-v4-flash" || !cfg.modelGiven {
					t.Errorf("cfg = %+v", cfg)
				}
			},
		},
		{name: "a bad config file names its line and key", args: []string{"--config", badFile},
			wantErr: badFile + `:3: models.qwen.provider: unknown provider "local" (known: deepseek, openai)`},
		{name: "a bad default config file too", env: map[string]string{"XDG_CONFIG_HOME": badXDG}, args: []string{"demo"},
			wantErr: filepath.Join(badXDG, "dsh-acp", "config.toml") + `:1: preset: unknown permission preset "yolo"`},
		{name: "no default config file", env: map[string]string{"XDG_CONFIG_HOME": filepath.Join(dir, "none")},
			check: func(t *testing.T, cfg config) {
				checkCommand(t, cfg, "serve", cfg.settings.Path == "" && !cfg.configGiven)
			}},
		{name: "version reads no config file", args: []string{"version"}, env: map[string]string{"DSH_CONFIG": badFile},
			check: func(t *testing.T, cfg config) { checkCommand(t, cfg, "version", cfg.settings == nil) }},
		{
			name: "login --provider",
			args: []string{"login", "--provider", "openai"},
			check: func(t *testing.T, cfg config) {
				checkCommand(t, cfg, "login", cfg.provider == "openai" && !cfg.allProviders && cfg.settings != nil)
			},
		},
		{
			name:  "logout --all",
			args:  []string{"logout", "--all"},
			check: func(t *testing.T, cfg config) { checkCommand(t, cfg, "logout", cfg.allProviders) },
		},
		{name: "--provider outside login and logout", args: []string{"--provider", "openai"}, wantErr: "--provider is for login and logout"},
		{name: "--all outside logout", args: []string{"login", "--all"}, wantErr: "--all is for logout"},
		{name: "--all and --provider", args: []string{"logout", "--all", "--provider", "x"}, wantErr: "logout takes --provider or --all, not both"},
		{
			name: "environment",
			env: map[string]string{"DSH_BASE_URL": "http://localhost:11434/v1", "DSH_MODEL": "qwen", "DSH_MODEL_SCRIPT": "/s.jsonl",
				"DEEPSEEK_API_KEY": "k", "XDG_STATE_HOME": "/state", "DSH_CONFIG": configFile, "DSH_SHELL_ENV_ALLOW": "github_token, AWS_*"},
			check: func(t *testing.T, cfg config) {
				if cfg.llm.BaseURL != "http://localhost:11434/v1" || cfg.llm.Model != "qwen" || cfg.llm.ModelScript != "/s.jsonl" ||
					cfg.llm.APIKey != "k" || cfg.stateDir != "/state/dsh-acp" || cfg.configFile != configFile || !cfg.configGiven ||
					!slices.Equal(cfg.shellEnvAllow, []string{"GITHUB_TOKEN", "AWS_*"}) {
					t.Errorf("cfg = %+v", cfg)
				}
			},
		},
		{
			name: "flags win over the environment",
			args: []string{"--model", "flag-model", "--model-script", "/f.jsonl", "--state-dir", "/sd", "--permission", "full-access", "--log-level", "debug", "--log-file", "/tmp/x.log"},
			env:  map[string]string{"DSH_MODEL": "env-model", "DSH_MODEL_SCRIPT": "/e.jsonl", "DSH_STATE_DIR": "/esd"},
			check: func(t *testing.T, cfg config) {
				if cfg.llm.Model != "flag-model" || cfg.llm.ModelScript != "/f.jsonl" || cfg.stateDir != "/sd" ||
					cfg.preset != policy.FullAccess || cfg.logLevel != slog.LevelDebug || cfg.logFile != "/tmp/x.log" {
					t.Errorf("cfg = %+v", cfg)
				}
			},
		},
		{
			name:  "demo command with flags",
			args:  []string{"demo", "--verbose"},
			check: func(t *testing.T, cfg config) { checkCommand(t, cfg, "demo", cfg.demoVerbose) },
		},
		{
			name:  "--version",
			args:  []string{"--version"},
			check: func(t *testing.T, cfg config) { checkCommand(t, cfg, "version", true) },
		},
		{name: "unknown command", args: []string{"sevre"}, wantErr: `unknown command "sevre"`},
		{name: "unknown flag", args: []string{"--nope"}, wantErr: "flag provided but not defined: -nope"},
		{name: "bad preset", args: []string{"--permission", "yolo"}, wantErr: `unknown permission preset "yolo"`},
		{name: "bad log level", args: []string{"--log-level", "loud"}, wantErr: "--log-level"},
		{name: "stray argument", args: []string{"demo", "extra"}, wantErr: `unexpected argument "extra"`},
		{
			name: "--config naming a readable file",
			args: []string{"--config", configFile},
			check: func(t *testing.T, cfg config) {
				checkCommand(t, cfg, "serve", cfg.configFile == configFile && cfg.configGiven)
			},
		},
		{name: "--config naming a missing file", args: []string{"--config", "/nonexistent/dsh.toml"},
			wantErr: "config file: open /nonexistent/dsh.toml: no such file or directory (named by --config or DSH_CONFIG"},
		{name: "DSH_CONFIG naming a missing file", env: map[string]string{"DSH_CONFIG": "/nonexistent/dsh.toml"},
			wantErr: "config file: open /nonexistent/dsh.toml: no such file or directory"},
		{name: "--config naming a directory", args: []string{"--config", os.TempDir()}, wantErr: "is a directory"},
		{name: "--config wins over a bad DSH_CONFIG", args: []string{"--config", configFile}, env: map[string]string{"DSH_CONFIG": "/nonexistent"},
			check: func(t *testing.T, cfg config) { checkCommand(t, cfg, "serve", cfg.configFile == configFile) }},
		{name: "a bad DSH_SHELL_ENV_ALLOW pattern", env: map[string]string{"DSH_SHELL_ENV_ALLOW": "AWS_[*"},
			wantErr: `DSH_SHELL_ENV_ALLOW: "AWS_[*" is not a valid pattern`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseConfig(tt.args, envOf(tt.env), &bytes.Buffer{})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, cfg)
		})
	}
}

// writeFile writes content to path, making its directory.
func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func checkCommand(t *testing.T, cfg config, want string, ok bool) {
	t.Helper()
	if cfg.command != want || !ok {
		t.Errorf("cfg = %+v, want command %q", cfg, want)
	}
}

func TestHelpAndVersion(t *testing.T) {
	var out, errOut bytes.Buffer
	io := streams{in: strings.NewReader(""), out: &out, err: &errOut}
	if code := run(t.Context(), []string{"--help"}, envOf(nil), io); code != 0 {
		t.Errorf("--help exit = %d", code)
	}
	for _, want := range []string{"dsh-acp [flags]", "dsh-acp demo", "DSH_API_KEY", "-model-script", "stdout carries only protocol frames",
		"-state-dir directory\n    \tthe directory where sessions, remembered approvals and checkpoints are kept",
		"-config file\n    \tthe config file (default $XDG_CONFIG_HOME/dsh-acp/config.toml)",
		"DSH_STATE_DIR        where sessions, remembered approvals and checkpoints are",
		"dsh-acp login [--provider NAME]", "dsh-acp logout [--provider NAME | --all]",
		"-provider name\n    \tlogin, logout: the name of the provider whose key to store or remove",
		"-model model\n    \tthe model (default: the config file's model, else " + llm.DefaultModel + ")",
		"-all\n    \tlogout: remove every stored key",
		"DSH_SHELL_ENV_ALLOW", "else " + llm.DefaultModel + ")", "a second signal exits at once"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("help lacks %q", want)
		}
	}
	for _, stale := range []string{"reserved", "nothing is stored yet", "no setting is read"} {
		if strings.Contains(errOut.String(), stale) {
			t.Errorf("help still says %q", stale)
		}
	}
	if out.Len() != 0 {
		t.Errorf("help wrote to stdout: %q", out.String())
	}
	out.Reset()
	if code := run(t.Context(), []string{"version"}, envOf(nil), io); code != 0 || !strings.HasPrefix(out.String(), "dsh-acp 0.1.0") {
		t.Errorf("version: exit %d, %q", code, out.String())
	}
	if code := run(t.Context(), []string{"bogus"}, envOf(nil), io); code != 2 {
		t.Errorf("bogus command exit = %d, want 2", code)
	}
}
