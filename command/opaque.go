package command

import "strings"

// opaqueProgram returns why running s makes the line impossible to judge
// ("" when it does not): programs that run strings as commands (eval,
// source, sh -c, trap, watch, parallel …), change what names mean
// (alias, enable, hash -p), or run callbacks (mapfile -C). Builtins are
// matched as bash matches them, exactly; programs as the platform finds
// them.
func opaqueProgram(s Simple, name string) string {
	switch name {
	case "eval":
		return "eval runs a string as a command, which cannot be judged"
	case "source", ".":
		return name + " runs a script in this shell, which cannot be judged"
	case "trap":
		if ops := operands(scan(s, 1, flagSpec{posix: true})); len(ops) >= 2 && s.Words[ops[0].index] != "-" {
			return "trap runs a string as a command later, which cannot be judged"
		}
	case "alias":
		for _, w := range s.Words[1:] {
			if strings.Contains(w, "=") {
				return "alias changes what a name runs, which cannot be judged"
			}
		}
	case "enable":
		return "enable loads or hides builtins, which cannot be judged"
	case "hash":
		if _, ok := anyOption(scan(s, 1, flagSpec{short: "p"}), "-p"); ok {
			return "hash -p changes which program a name runs, which cannot be judged"
		}
	case "mapfile", "readarray":
		if _, ok := anyOption(scan(s, 1, flagSpec{short: "dnOsuCc"}), "-C"); ok {
			return name + " -C runs a string as a command, which cannot be judged"
		}
	case "fc", "bind", "complete", "compgen", "let", "declare", "typeset", "local", "export", "readonly":
		return name + " run this way cannot be judged"
	}
	// Programs found on the PATH, by any spelling the platform runs
	// (sameProgram: `BASH -c …` on macOS, `PowerShell.exe` on Windows).
	switch hostProgramRule().key(name) {
	case "watch", "parallel", "flock", "script":
		return name + " runs its arguments through a shell, which cannot be judged"
	case "pwsh", "powershell", "cmd", "cmd.exe":
		return name + " runs commands of another shell, which cannot be judged"
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "rbash":
		return shellReason(s, name)
	}
	return ""
}

// shellReason returns why running a shell makes the line opaque: a
// string run with -c, commands read from input, or a script named only
// when it runs. A shell running a named script file is a command like
// any other.
func shellReason(s Simple, name string) string {
	opts := scan(s, 1, flagSpec{short: "oO", long: []string{"rcfile", "init-file"}, posix: true})
	for _, o := range opts {
		switch {
		case o.unknown:
			return "cannot tell what " + name + " runs: " + s.Words[o.index] + " is known only when it runs"
		case o.name == "-c" || o.is("", "--command"):
			return name + " -c runs a string as a command, which cannot be judged"
		case o.name == "-s" || o.name == "-i":
			return name + " " + o.name + " reads commands from its input, which cannot be judged"
		case o.is("", "--rcfile") || o.is("", "--init-file"):
			return name + " " + o.name + " runs a startup file, which cannot be judged"
		}
	}
	ops := operands(opts)
	if len(ops) == 0 {
		return name + " reads commands from its input, which cannot be judged"
	}
	if !s.literal(ops[0].index) {
		return name + " runs a script named only when it runs, which cannot be judged"
	}
	return ""
}

// shadowed reports whether a function named name would hide a command
// the policy knows: one on the read-only list, a wrapper, a shell or a
// builtin.
func shadowed(name string) bool {
	if readOnlyProgram(name) {
		return true
	}
	switch name {
	case "env", "nohup", "setsid", "nice", "stdbuf", "timeout", "ionice", "time", "command", "builtin",
		"busybox", "exec", "xargs", "sudo", "doas", "su", "eval", "source", ".", "trap", "alias", "enable",
		"hash", "mapfile", "readarray", "sh", "bash", "zsh", "dash", "ksh", "fish", "git", "go", "find",
		"rm", "cp", "mv", "mkdir", "touch", "chmod", "chown", "ln", "curl", "wget", "tee", "sed", "awk",
		"sort", "uniq", "exit", "return", "break", "continue", "shift", "unset", "wait", "kill", "jobs",
		"declare", "local", "export", "readonly", "typeset", "let", "getopts", "umask", "ulimit",
		"shopt", "set", "command_not_found_handle":
		return true
	}
	return false
}
