package shell

import (
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
	set := append(quietEnv(), commandIDVar+"="+commandID)
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

// quietEnv is set in every command's environment: no terminal features,
// and pagers that print instead of waiting for a key.
func quietEnv() []string {
	return []string{"TERM=dumb", "PAGER=cat", "GIT_PAGER=cat"}
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
