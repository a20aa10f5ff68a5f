package secrets

import (
	"maps"
	"slices"
	"strings"
)

// Environ returns parent (KEY=value entries, as os.Environ gives them)
// without the variables Withheld(name, allow) keeps out, in parent's
// order. parent is not changed.
func Environ(parent, allow []string) []string {
	env := make([]string, 0, len(parent))
	for _, kv := range parent {
		name, _, _ := strings.Cut(kv, "=")
		if !Withheld(name, allow) {
			env = append(env, kv)
		}
	}
	return env
}

// ServerEnviron returns the environment of a server dsh-acp starts (an
// MCP server, a language server): Environ(parent, allow), with named (what
// the editor or the configuration sets for that server) on top, sorted by
// name and replacing parent's entries of the same names. What named sets
// always passes, a model key included: it was written for that server.
func ServerEnviron(parent, allow []string, named map[string]string) []string {
	env := make([]string, 0, len(parent)+len(named))
	for _, kv := range Environ(parent, allow) {
		name, _, _ := strings.Cut(kv, "=")
		if _, set := named[name]; !set {
			env = append(env, kv)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(named)) {
		env = append(env, name+"="+named[name])
	}
	return env
}
