package secrets_test

import (
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/secrets"
)

var parentEnv = []string{
	"PATH=/usr/bin", "HOME=/home/me", "PWD=/work", "SSH_AUTH_SOCK=/run/agent.sock",
	"DSH_API_KEY=dsh-key-0123456789", "DEEPSEEK_API_KEY=b", "OPENAI_API_KEY=c",
	"GITHUB_TOKEN=ghp_0123456789", "MY_SECRET=e", "AWS_SECRET_ACCESS_KEY=aws/Secret+0123456789",
	"GOOGLE_APPLICATION_CREDENTIALS=/home/me/gcp.json", "DB_PASSWORD=12345678901", "EMPTY=",
}

func TestEnviron(t *testing.T) {
	for _, tt := range []struct {
		name  string
		allow []string
		want  []string
	}{
		{"no allow list", nil,
			[]string{"PATH=/usr/bin", "HOME=/home/me", "PWD=/work", "SSH_AUTH_SOCK=/run/agent.sock", "EMPTY="}},
		{"an allowed token", []string{"GITHUB_*", "DSH_*"},
			[]string{"PATH=/usr/bin", "HOME=/home/me", "PWD=/work", "SSH_AUTH_SOCK=/run/agent.sock", "GITHUB_TOKEN=ghp_0123456789", "EMPTY="}},
	} {
		if got := secrets.Environ(parentEnv, tt.allow); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Environ =\n%q\nwant\n%q", tt.name, got, tt.want)
		}
	}
}

// TestServerEnviron: a server gets the scrubbed environment and, on top,
// exactly what its configuration names, even a secret-looking name.
func TestServerEnviron(t *testing.T) {
	got := secrets.ServerEnviron(parentEnv, nil, map[string]string{"HOME": "/srv", "SERVER_TOKEN": "t", "A": "1"})
	want := []string{"PATH=/usr/bin", "PWD=/work", "SSH_AUTH_SOCK=/run/agent.sock", "EMPTY=", "A=1", "HOME=/srv", "SERVER_TOKEN=t"}
	if !slices.Equal(got, want) {
		t.Errorf("ServerEnviron =\n%q\nwant\n%q", got, want)
	}
}

func TestEnvValues(t *testing.T) {
	got := secrets.EnvValues(append(parentEnv, "OTHER_TOKEN=ghp_0123456789", "SPACED_KEY=  padded-value-1  "))
	// Short values, all-digit values and paths are left; duplicates once.
	want := []string{"dsh-key-0123456789", "ghp_0123456789", "aws/Secret+0123456789", "padded-value-1"}
	if !slices.Equal(got, want) {
		t.Errorf("EnvValues = %q, want %q", got, want)
	}
}
