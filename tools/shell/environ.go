package shell

import (
	"crypto/rand"
	"fmt"
	"strconv"
	"strings"

	"github.com/dsh-acp/dsh-acp/secrets"
)

// commandIDVar names the variable every command's environment carries: a
// random id unique to the command. Its processes inherit it, including
// those that leave the command's process group (setsid, daemons), which is
// how they are found and stopped with the command (see strays.go).
const commandIDVar = "DSH_COMMAND_ID"

// childEnv returns a command's environment: parent (KEY=value entries, as
// os.Environ gives them) without the secrets the one rule every program
// dsh-acp starts shares withholds (secrets.Environ: the agent's own keys
// never, other secret-looking names unless allow lets them through), and
// without what changes how bash reads a command (changesParsing), with the
// quiet settings of quietEnv and the command's id replacing whatever parent
// had for them.
func childEnv(parent, allow []string, commandID string) []string {
	set := append(quietEnv(parent), commandIDVar+"="+commandID)
	scrubbed := secrets.Environ(parent, allow)
	env := make([]string, 0, len(scrubbed)+len(set))
	for _, kv := range scrubbed {
		name, _, _ := strings.Cut(kv, "=")
		if overridden(set, name) || changesParsing(name) {
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
	settings := [][2]string{{"safe.bareRepository", "explicit"}, {"core.fsmonitor", "false"}, {"core.pager", "cat"}}
	for i, kv := range settings {
		env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", first+i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", first+i, kv[1]))
	}
	return append(env, fmt.Sprintf("GIT_CONFIG_COUNT=%d", first+len(settings)))
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

// checkAllowPattern reports why pattern (upper-cased) cannot be an
// Options.EnvAllow entry; the rule is secrets.CheckAllow's.
func checkAllowPattern(pattern string) error {
	_, err := secrets.CheckAllow([]string{pattern})
	return err
}

// ParseEnvAllow reads an allow list for Options.EnvAllow as
// DSH_SHELL_ENV_ALLOW spells it; it is secrets.ParseAllow, the one parser
// of the list, which also serves MCP and language servers.
func ParseEnvAllow(list string) ([]string, error) { return secrets.ParseAllow(list) }

// newCommandID returns a fresh random command id.
func newCommandID() string {
	return rand.Text()
}
