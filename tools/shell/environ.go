package shell

import "strings"

// childEnv returns parent (KEY=value entries, as os.Environ gives them)
// without secrets, and with the quiet settings of quietEnv replacing
// whatever parent had for them.
func childEnv(parent []string) []string {
	quiet := quietEnv()
	env := make([]string, 0, len(parent)+len(quiet))
	for _, kv := range parent {
		name, _, _ := strings.Cut(kv, "=")
		if isSecret(name) || overridden(quiet, name) {
			continue
		}
		env = append(env, kv)
	}
	return append(env, quiet...)
}

// quietEnv is set in every command's environment: no terminal features,
// and pagers that print instead of waiting for a key.
func quietEnv() []string {
	return []string{"TERM=dumb", "PAGER=cat", "GIT_PAGER=cat"}
}

// isSecret reports whether the variable name holds a credential a command
// must not see: DSH_API_KEY, DEEPSEEK_API_KEY, OPENAI_API_KEY, and every
// name ending in _TOKEN, _SECRET or _API_KEY. Case does not matter.
func isSecret(name string) bool {
	upper := strings.ToUpper(name)
	switch upper {
	case "DSH_API_KEY", "DEEPSEEK_API_KEY", "OPENAI_API_KEY":
		return true
	}
	return strings.HasSuffix(upper, "_TOKEN") ||
		strings.HasSuffix(upper, "_SECRET") ||
		strings.HasSuffix(upper, "_API_KEY")
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
