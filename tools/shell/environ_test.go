package shell

import (
	"slices"
	"testing"
)

func TestChildEnv(t *testing.T) {
	parent := []string{
		"PATH=/usr/bin", "HOME=/home/me",
		"DSH_API_KEY=a", "DEEPSEEK_API_KEY=b", "OPENAI_API_KEY=c",
		"GITHUB_TOKEN=d", "MY_SECRET=e", "ANTHROPIC_API_KEY=f", "github_token=g",
		"TOKEN_COUNT=3", "TERM=xterm-256color", "PAGER=less", "EMPTY=",
	}
	got := childEnv(parent)
	want := []string{"PATH=/usr/bin", "HOME=/home/me", "TOKEN_COUNT=3", "EMPTY=", "TERM=dumb", "PAGER=cat", "GIT_PAGER=cat"}
	if !slices.Equal(got, want) {
		t.Errorf("childEnv =\n%q\nwant\n%q", got, want)
	}
}

func TestIsSecret(t *testing.T) {
	for name, want := range map[string]bool{
		"DSH_API_KEY": true, "DEEPSEEK_API_KEY": true, "OPENAI_API_KEY": true,
		"NPM_TOKEN": true, "AWS_SECRET": true, "X_API_KEY": true, "slack_token": true,
		"PATH": false, "API_KEY": false, "TOKEN": false, "SECRET_FILE": false, "DSH_MODEL": false,
	} {
		if got := isSecret(name); got != want {
			t.Errorf("isSecret(%q) = %v, want %v", name, got, want)
		}
	}
}
