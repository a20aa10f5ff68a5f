package secrets_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/secrets"
)

// TestWithheld is the documented rule, name by name.
func TestWithheld(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		// The agent's own keys.
		{"DSH_API_KEY", true}, {"DEEPSEEK_API_KEY", true}, {"OPENAI_API_KEY", true}, {"dsh_api_key", true},
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
		// A git setting's name, not a credential; other KEY words stay secrets.
		{"GIT_CONFIG_KEY_0", false}, {"GIT_CONFIG_KEY_12", false}, {"GIT_CONFIG_KEY_X", true}, {"MY_GIT_CONFIG_KEY_0", true},
	} {
		if got := secrets.Withheld(tt.name, nil); got != tt.want {
			t.Errorf("Withheld(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestWithheldAllow: an allow pattern lets a secret through, never a
// model key.
func TestWithheldAllow(t *testing.T) {
	allow, err := secrets.ParseAllow("GITHUB_TOKEN, aws_*,DSH_API_KEY,*_API_KEY")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"GITHUB_TOKEN", false}, {"github_token", false}, {"AWS_SECRET_ACCESS_KEY", false}, {"ANTHROPIC_API_KEY", false},
		{"DSH_API_KEY", true}, {"DEEPSEEK_API_KEY", true}, {"OPENAI_API_KEY", true}, {"MY_SECRET", true}, {"PGPASSWORD", true},
	} {
		if got := secrets.Withheld(tt.name, allow); got != tt.want {
			t.Errorf("Withheld(%q, %q) = %v, want %v", tt.name, allow, got, tt.want)
		}
	}
}

func TestParseAllow(t *testing.T) {
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
		got, err := secrets.ParseAllow(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseAllow(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseAllow(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
