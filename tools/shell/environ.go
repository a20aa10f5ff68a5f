package shell

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// commandIDVar names the variable every command's environment carries: a
// random id unique to the command. Its processes inherit it, including
// those that leave the command's process group (setsid, daemons), which is
// how they are found and stopped with the command (see strays.go).
const commandIDVar = "DSH_COMMAND_ID"

// childEnv returns a command's environment: parent (KEY=value entries, as
// os.Environ gives them) without secrets (isSecret) unless allow lets them
// through, and without what changes how bash reads a command
// (changesParsing), with the quiet settings of quietEnv and the command's id
// replacing whatever parent had for them. The agent's own keys
// (alwaysWithheld) never pass.
func childEnv(parent, allow []string, commandID string) []string {
	set := append(quietEnv(parent), commandIDVar+"="+commandID)
	env := make([]string, 0, len(parent)+len(set))
	for _, kv := range parent {
		name, _, _ := strings.Cut(kv, "=")
		if withheld(name, allow) || overridden(set, name) || changesParsing(name) {
			continue
		}
		env = append(env, kv)
	}
	return append(env, set...)
}

// changesParsing reports whether the variable would make bash run
// something else than the command line the permission policy parsed and
// judged: a file sourced before the command (BASH_ENV, ENV), exported
// functions that shadow programs (BASH_FUNC_name%%), a cd that goes
// elsewhere (CDPATH), a word splitting of its own (IFS), startup options
// (SHELLOPTS, BASHOPTS). Commands never inherit them.
func changesParsing(name string) bool {
	switch name {
	case "BASH_ENV", "ENV", "CDPATH", "IFS", "SHELLOPTS", "BASHOPTS", "GLOBIGNORE":
		return true
	}
	return strings.HasPrefix(name, "BASH_FUNC_")
}

// quietEnv is set in every command's environment (parent is the one it
// inherits): no terminal features, pagers that print instead of waiting
// for a key, and git hardened against a hostile repository:
//
//   - safe.bareRepository=explicit: git never takes a directory laid out
//     like a bare repository (a hostile tree can hold one, with a config
//     naming programs) for the repository it works in;
//   - core.fsmonitor=false: git status runs no file-system monitor
//     program;
//   - core.pager=cat: no pager program, whatever a config says;
//   - GIT_OPTIONAL_LOCKS=0: git status does not rewrite the index on the
//     side, which would run a post-index-change hook.
//
// The settings come as GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n /
// GIT_CONFIG_VALUE_n after those parent already sets, so they win over
// every configuration file and keep the user's own. Hooks (core.hooksPath)
// and diff.external are left alone: an empty hooks path would skip the
// user's commit hooks in commands a rule allows, and git 2.39 fails every
// diff with diff.external set empty. Neither can come from a hostile tree
// once bare layouts are refused and writes into .git ask.
func quietEnv(parent []string) []string {
	env := []string{"TERM=dumb", "PAGER=cat", "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0"}
	first := 0
	for _, kv := range parent {
		if n, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			if count, err := strconv.Atoi(n); err == nil && count > 0 {
				first = count
			}
		}
	}
	for _, kv := range parent {
		// The user's keys are names, not secrets, whatever withheld
		// makes of GIT_CONFIG_KEY_n: without them git refuses to run.
		if n, ok := strings.CutPrefix(kv, "GIT_CONFIG_KEY_"); ok {
			if i, err := strconv.Atoi(strings.SplitN(n, "=", 2)[0]); err == nil && i < first {
				env = append(env, kv)
			}
		}
	}
	settings := [][2]string{{"safe.bareRepository", "explicit"}, {"core.fsmonitor", "false"}, {"core.pager", "cat"}}
	for i, kv := range settings {
		env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", first+i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", first+i, kv[1]))
	}
	return append(env, fmt.Sprintf("GIT_CONFIG_COUNT=%d", first+len(settings)))
}

// withheld reports whether the variable name stays out of commands'
// environments: the agent's own model keys (DSH_API_KEY, DEEPSEEK_API_KEY,
// OPENAI_API_KEY) always; any other secret (isSecret) unless an allow
// pattern matches it. PWD and SSH_AUTH_SOCK match the secret rule but
// always pass: the working directory, and the ssh agent's socket (git
// over ssh asks the agent; the keys never leave it).
func withheld(name string, allow []string) bool {
	upper := strings.ToUpper(name)
	switch upper {
	case "DSH_API_KEY", "DEEPSEEK_API_KEY", "OPENAI_API_KEY":
		return true
	case "PWD", "SSH_AUTH_SOCK":
		return false
	}
	if !isSecret(name) {
		return false
	}
	for _, pattern := range allow {
		if ok, _ := path.Match(pattern, upper); ok {
			return false
		}
	}
	return true
}

// isSecret reports whether the variable name looks like it holds a
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
// TOKENIZERS_PARALLELISM and DBUS_SESSION_BUS_ADDRESS are not secrets.
// PWD itself and SSH_AUTH_SOCK match the rule but always pass (see
// withheld).
func isSecret(name string) bool {
	words := strings.FieldsFunc(strings.ToUpper(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
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

// ParseEnvAllow reads an allow list for secret-looking variables, as
// DSH_SHELL_ENV_ALLOW spells it: comma-separated variable names or
// path.Match patterns ("GITHUB_TOKEN,AWS_*"), matched case-insensitively.
// Blank entries are skipped. It fails on an entry that is not a valid
// pattern or holds '='. The result is upper-cased, ready for
// Options.EnvAllow.
func ParseEnvAllow(list string) ([]string, error) {
	var patterns []string
	for entry := range strings.SplitSeq(list, ",") {
		entry = strings.ToUpper(strings.TrimSpace(entry))
		if entry == "" {
			continue
		}
		if err := checkAllowPattern(entry); err != nil {
			return nil, fmt.Errorf("DSH_SHELL_ENV_ALLOW: %w", err)
		}
		patterns = append(patterns, entry)
	}
	return patterns, nil
}

// checkAllowPattern reports why pattern cannot be an allow entry.
func checkAllowPattern(pattern string) error {
	if strings.Contains(pattern, "=") {
		return fmt.Errorf("%q cannot be a variable name (it holds '='): list names or patterns such as GITHUB_TOKEN or AWS_*", pattern)
	}
	if _, err := path.Match(pattern, ""); err != nil {
		return fmt.Errorf("%q is not a valid pattern (%w): use names, '*', '?' and [a-z] classes", pattern, err)
	}
	return nil
}

// overridden reports whether one of the KEY=value entries in set sets name.
func overridden(set []string, name string) bool {
	for _, kv := range set {
		if strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
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
