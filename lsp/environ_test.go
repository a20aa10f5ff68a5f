package lsp_test

import (
	"os"
	"testing"

	"github.com/dsh-acp/dsh-acp/lsp"
)

// TestServerEnvironment: a language server never sees the agent's model
// key nor another secret of its environment, unless EnvAllow lets the
// latter through; it does see what its configuration names.
func TestServerEnvironment(t *testing.T) {
	t.Setenv("DSH_API_KEY", "sk-model-key-0123456789")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-0123456789")
	t.Setenv("PLAIN_SETTING", "plain")
	t.Setenv(fakeServerEnv, "env")
	for _, tt := range []struct {
		name  string
		allow []string
		want  string
	}{
		{"scrubbed", nil, "fake reports 1 new error in a.go after this change:\n" +
			"a.go:1:1: DSH_API_KEY unset AWS_SECRET_ACCESS_KEY unset PLAIN_SETTING=plain CONFIGURED_TOKEN=configured"},
		{"allowed", []string{"aws_*", "DSH_*"}, "fake reports 1 new error in a.go after this change:\n" +
			"a.go:1:1: DSH_API_KEY unset AWS_SECRET_ACCESS_KEY=aws-secret-0123456789 PLAIN_SETTING=plain CONFIGURED_TOKEN=configured"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			m := lsp.New(lsp.Options{
				Roots: []string{root}, Settle: hangGuard, StartTimeout: hangGuard, EnvAllow: tt.allow,
				Servers: []lsp.ServerConfig{{Name: "fake", Command: []string{os.Args[0]}, Extensions: []string{".go"}, LanguageID: "go",
					Env: map[string]string{"CONFIGURED_TOKEN": "configured"}}},
			})
			t.Cleanup(func() { _ = m.Close() })
			if got := write(t, m, root, "a.go", "package a\n"); got != tt.want {
				t.Errorf("AfterWrite =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
