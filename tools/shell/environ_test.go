package shell

import (
	"slices"
	"strings"
	"testing"
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
	allow, err := ParseEnvAllow("GITHUB_TOKEN, aws_*,DSH_API_KEY,*_API_KEY")
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

// TestWithheld is the documented rule, name by name.
func TestWithheld(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		// The agent's own keys.
		{"DSH_API_KEY", true}, {"DEEPSEEK_API_KEY", true}, {"OPENAI_API_KEY", true},
		// Words containing PASSWORD, PASSWD, PASSPHRASE, SECRET or CREDENTIAL.
		{"AWS_SECRET_ACCESS_KEY", true}, {"MYSQL_PASSWORD", true}, {"PGPASSWORD", true}, {"DB_PASSWD", true},
		{"GPG_PASSPHRASE", true}, {"CLIENT_SECRETS", true}, {"GOOGLE_APPLICATION_CREDENTIALS", true},
		{"secret_file", true},
		// Words ending in KEY or TOKEN.
		{"ANTHROPIC_API_KEY", true}, {"AWS_ACCESS_KEY_ID", true}, {"STRIPE_APIKEY", true}, {"API_KEY", true},
		{"GITHUB_TOKEN", true}, {"slack_token", true}, {"NPM_AUTHTOKEN", true}, {"TOKEN", true},
		{"AWS_SESSION_TOKEN", true}, {"NPM_CONFIG_//registry.npmjs.org/:_authToken", true},
		// Words that are AUTH, PASS, PWD, PAT, CREDS, COOKIE or TOKENS.
		{"NPM_AUTH", true}, {"NPM_CONFIG__AUTH", true}, {"DOCKER_AUTH_CONFIG", true}, {"SMTP_PASS", true},
		{"MYSQL_PWD", true}, {"GH_PAT", true}, {"REGISTRY_CREDS", true}, {"SITE_COOKIE", true}, {"HF_TOKENS", true},
		// SESSION as the last word.
		{"BW_SESSION", true}, {"AOC_SESSION", true},
		// What stays.
		{"PATH", false}, {"HOME", false}, {"PWD", false}, {"OLDPWD", false}, {"SSH_AUTH_SOCK", false},
		{"GPG_AGENT_INFO", false}, {"XKB_DEFAULT_LAYOUT", false}, {"KEYBOARD", false}, {"GNOME_KEYRING_CONTROL", false},
		{"XAUTHORITY", false}, {"GIT_AUTHOR_NAME", false}, {"GIT_ASKPASS", false}, {"TOKENIZERS_PARALLELISM", false},
		{"XDG_SESSION_TYPE", false}, {"DBUS_SESSION_BUS_ADDRESS", false}, {"SESSION_MANAGER", false},
		{"PATHEXT", false}, {"DSH_MODEL", false}, {"DSH_SHELL_ENV_ALLOW", false}, {"LANG", false},
	} {
		if got := withheld(tt.name, nil); got != tt.want {
			t.Errorf("withheld(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseEnvAllow(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"", nil, ""},
		{" , ,", nil, ""},
		{"GITHUB_TOKEN", []string{"GITHUB_TOKEN"}, ""},
		{"a, B_* ,npm_?", []string{"A", "B_*", "NPM_?"}, ""},
		{"OK,[", nil, `DSH_SHELL_ENV_ALLOW: "[" is not a valid pattern`},
		{"A=B", nil, `DSH_SHELL_ENV_ALLOW: "A=B" cannot be a variable name`},
	} {
		got, err := ParseEnvAllow(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseEnvAllow(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseEnvAllow(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
