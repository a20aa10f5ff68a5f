package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/policy"
)

func envOf(vars map[string]string) environ {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

func TestParseConfig(t *testing.T) {
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
				if cfg.command != "serve" || cfg.llm.BaseURL != "https://api.deepseek.com" || cfg.llm.Model != "deepseek-chat" ||
					cfg.preset != policy.WorkspaceWrite || cfg.logLevel != slog.LevelInfo ||
					cfg.stateDir != "/home/u/.local/state/dsh-acp" || cfg.configFile != "/home/u/.config/dsh-acp/config.toml" {
					t.Errorf("cfg = %+v", cfg)
				}
			},
		},
		{
			name: "environment",
			env: map[string]string{"DSH_BASE_URL": "http://localhost:11434/v1", "DSH_MODEL": "qwen", "DSH_MODEL_SCRIPT": "/s.jsonl",
				"DEEPSEEK_API_KEY": "k", "XDG_STATE_HOME": "/state", "DSH_CONFIG": "/c.toml"},
			check: func(t *testing.T, cfg config) {
				if cfg.llm.BaseURL != "http://localhost:11434/v1" || cfg.llm.Model != "qwen" || cfg.llm.ModelScript != "/s.jsonl" ||
					cfg.llm.APIKey != "k" || cfg.stateDir != "/state/dsh-acp" || cfg.configFile != "/c.toml" {
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
	for _, want := range []string{"dsh-acp [flags]", "dsh-acp demo", "DSH_API_KEY", "-model-script", "stdout carries only protocol frames"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("help lacks %q", want)
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
