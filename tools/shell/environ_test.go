package shell

import (
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/secrets"
)

func TestChildEnv(t *testing.T) {
	parent := []string{
		"PATH=/usr/bin", "HOME=/home/me", "PWD=/work", "SSH_AUTH_SOCK=/run/agent.sock",
		"DSH_API_KEY=a", "DEEPSEEK_API_KEY=b", "OPENAI_API_KEY=c",
		"GITHUB_TOKEN=d", "MY_SECRET=e", "ANTHROPIC_API_KEY=f", "github_token=g",
		"AWS_SECRET_ACCESS_KEY=h", "PGPASSWORD=i", "NPM_CONFIG__AUTH=j",
		"TERM=xterm-256color", "PAGER=less", "EMPTY=", "DSH_COMMAND_ID=inherited",
		"BASH_ENV=/tmp/evil.sh", "ENV=/tmp/evil.sh", "CDPATH=/", "IFS=x", "SHELLOPTS=xtrace",
		"BASH_FUNC_ls%%=() { rm -rf ~; }",
	}
	got := childEnv(parent, nil, "c1")
	want := []string{"PATH=/usr/bin", "HOME=/home/me", "PWD=/work", "SSH_AUTH_SOCK=/run/agent.sock", "EMPTY=",
		"TERM=dumb", "PAGER=cat", "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0",
		"GIT_CONFIG_KEY_0=safe.bareRepository", "GIT_CONFIG_VALUE_0=explicit",
		"GIT_CONFIG_KEY_1=core.fsmonitor", "GIT_CONFIG_VALUE_1=false",
		"GIT_CONFIG_KEY_2=core.pager", "GIT_CONFIG_VALUE_2=cat", "GIT_CONFIG_COUNT=3",
		"DSH_COMMAND_ID=c1"}
	if !slices.Equal(got, want) {
		t.Errorf("childEnv =\n%q\nwant\n%q", got, want)
	}

	// The allow list lets a withheld name through; the agent's own keys
	// never pass.
	allow, err := secrets.ParseAllow("GITHUB_TOKEN, aws_*,DSH_API_KEY,*_API_KEY")
	if err != nil {
		t.Fatal(err)
	}
	got = childEnv(parent, allow, "c2")
	for _, kv := range []string{"GITHUB_TOKEN=d", "AWS_SECRET_ACCESS_KEY=h", "ANTHROPIC_API_KEY=f"} {
		if !slices.Contains(got, kv) {
			t.Errorf("allowed %s is missing from %q", kv, got)
		}
	}
	for _, name := range []string{"DSH_API_KEY", "DEEPSEEK_API_KEY", "OPENAI_API_KEY", "MY_SECRET", "PGPASSWORD"} {
		if slices.ContainsFunc(got, func(kv string) bool { return strings.HasPrefix(kv, name+"=") }) {
			t.Errorf("%s passed with the allow list %q", name, allow)
		}
	}
}
