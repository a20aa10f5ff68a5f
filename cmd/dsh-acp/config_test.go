package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
	configFile := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(configFile, []byte("# nothing is read yet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		check   func(t *testing.T, cfg config)
		wantErr string
	}{
		{
			name: "defaults",
			env:  map[string]string{"HOME": "/home/u"},
			check: func(t *testing.T, cfg config) {
				if cfg.command != "serve" || cfg.llm.BaseURL != "https://api.deepseek.com" || cfg.llm.Model != llm.DefaultModel ||
					cfg.preset != policy.WorkspaceWrite || cfg.logLevel != slog.LevelInfo ||
					cfg.stateDir != "/home/u/.local/state/dsh-acp" || cfg.configFile != "/home/u/.config/dsh-acp/config.toml" ||
					cfg.configGiven || cfg.shellEnvAllow != nil {
					t.Errorf("cfg = %+v", cfg)
				}
			},
		},
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
			wantErr: "config file: open /nonexistent/dsh.toml: no such file or directory (give a readable file"},
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
		"-state-dir directory\n    \ta directory reserved for stored sessions: accepted, but nothing is stored yet",
		"-config file\n    \ta config file: it must be readable, but no setting is read from it yet",
		"DSH_STATE_DIR        reserved for stored sessions; nothing is stored yet",
		"DSH_SHELL_ENV_ALLOW", "(default " + llm.DefaultModel + ")", "a second signal exits at once"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("help lacks %q", want)
		}
	}
	for _, promise := range []string{"where sessions are kept", "the config file ("} {
		if strings.Contains(errOut.String(), promise) {
			t.Errorf("help promises %q, which does not work yet", promise)
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
