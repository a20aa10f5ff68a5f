package secrets

import (
	"path/filepath"
	"strings"
)

// MinValueLen is the shortest variable value EnvValues counts as a secret:
// shorter values ("1", "true", a four-digit PIN) would be found all over
// ordinary text, and hiding them everywhere would garble it.
const MinValueLen = 8

// EnvValues returns the values of the secret-looking variables of environ
// (KEY=value entries): those Withheld(name, nil) keeps out, whatever an
// allow list lets into commands, since letting a token into a command is
// not showing it to the model. A value counts when, trimmed of white
// space, it has at least MinValueLen characters, is not all digits (a
// port, a user id, a timestamp) and is not an absolute path (a credentials
// file's location, such as GOOGLE_APPLICATION_CREDENTIALS, names the
// secret without being it). Duplicates are dropped; the order is
// environ's.
func EnvValues(environ []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		value = strings.TrimSpace(value)
		if !Withheld(name, nil) || !worthHiding(value) || seen[value] {
			continue
		}
		seen[value] = true
		out = append(out, value)
	}
	return out
}

// worthHiding reports whether a secret variable's value is worth hiding
// wherever it appears (see EnvValues).
func worthHiding(value string) bool {
	if len(value) < MinValueLen || filepath.IsAbs(value) {
		return false
	}
	return strings.ContainsFunc(value, func(r rune) bool { return r < '0' || r > '9' })
}
