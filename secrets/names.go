package secrets

import (
	"path"
	"slices"
	"strings"
	"unicode"
)

// IsModelKey reports whether the variable holds one of the agent's own
// model keys (DSH_API_KEY, DEEPSEEK_API_KEY, OPENAI_API_KEY), which no
// program dsh-acp starts ever inherits.
func IsModelKey(name string) bool {
	switch strings.ToUpper(name) {
	case "DSH_API_KEY", "DEEPSEEK_API_KEY", "OPENAI_API_KEY":
		return true
	}
	return false
}

// Withheld reports whether the variable stays out of the environment of
// the programs dsh-acp starts: the agent's own model keys (IsModelKey)
// always; any other secret (IsSecretName) unless an allow pattern
// (path.Match patterns, see ParseAllow) matches its name, both upper-cased
// name. PWD and SSH_AUTH_SOCK match the secret rule but always pass: the
// working directory, and the ssh agent's socket (git over ssh asks the
// agent; the keys never leave it).
func Withheld(name string, allow []string) bool {
	if IsModelKey(name) {
		return true
	}
	upper := strings.ToUpper(name)
	if upper == "PWD" || upper == "SSH_AUTH_SOCK" || !IsSecretName(name) {
		return false
	}
	for _, pattern := range allow {
		if ok, _ := path.Match(strings.ToUpper(pattern), upper); ok {
			return false
		}
	}
	return true
}

// IsSecretName reports whether the variable name looks like it holds a
// credential. The name is upper-cased and split into words at every
// character that is not a letter or a digit; it is a secret when a word
//
//   - contains PASSWORD, PASSWD, PASSPHRASE, SECRET or CREDENTIAL
//     (PGPASSWORD, AWS_SECRET_ACCESS_KEY, GOOGLE_APPLICATION_CREDENTIALS);
//   - ends in KEY, KEYS, TOKEN or TOKENS (ANTHROPIC_API_KEY, AWS_ACCESS_KEY_ID,
//     GITHUB_TOKEN, NPM_AUTHTOKEN);
//   - is AUTH, PASS, PWD, PAT, CREDS or COOKIE (NPM_AUTH, MYSQL_PWD, GH_PAT);
//   - is SESSION and the last word (BW_SESSION).
//
// So PATH, HOME, KEYBOARD, XAUTHORITY, GIT_AUTHOR_NAME, GIT_ASKPASS,
// TOKENIZERS_PARALLELISM and DBUS_SESSION_BUS_ADDRESS are not secrets, and
// neither is GIT_CONFIG_KEY_<n>, which names a git setting (git refuses to
// run when GIT_CONFIG_COUNT promises a key that is missing).
// PWD itself and SSH_AUTH_SOCK match the rule (Withheld lets them pass).
func IsSecretName(name string) bool {
	words := strings.FieldsFunc(strings.ToUpper(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if isGitConfigKey(words) {
		return false
	}
	for i, w := range words {
		switch {
		case containsAny(w, "PASSWORD", "PASSWD", "PASSPHRASE", "SECRET", "CREDENTIAL"),
			hasAnySuffix(w, "KEY", "KEYS", "TOKEN", "TOKENS"),
			slices.Contains([]string{"AUTH", "PASS", "PWD", "PAT", "CREDS", "COOKIE"}, w),
			w == "SESSION" && i == len(words)-1:
			return true
		}
	}
	return false
}

// isGitConfigKey reports whether words spell GIT_CONFIG_KEY_<n>.
func isGitConfigKey(words []string) bool {
	if len(words) != 4 || words[0] != "GIT" || words[1] != "CONFIG" || words[2] != "KEY" {
		return false
	}
	return strings.Trim(words[3], "0123456789") == ""
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, suffix := range suffixes {
		if strings.HasSuffix(s, suffix) {
			return true
		}
	}
	return false
}
