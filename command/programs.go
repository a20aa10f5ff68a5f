package command

import (
	"strings"
)

// programOption returns the word of s that names a program for it to run
// (or a configuration that can name one), which no prefix rule covers:
// "Always allow `git push`" is about pushing, not about running whatever
// --receive-pack names. It is "" when s carries none. Both spellings
// count (--opt=value and --opt value), as do the abbreviations of long
// options that getopt_long and git accept. For the programs listed with
// options of their own below, an expansion that could become an option
// counts too.
//
// For every program: --receive-pack, --upload-pack, --exec, --exec-path,
// --config, --config-env, --script-shell, --pager, --editor,
// --use-compress-program, --compress-program, --rsh, --rsync-path,
// --to-command, --rsh-command, --rmt-command, --info-script,
// --new-volume-script, --checkpoint-action, --sendmail-cmd, --extcmd,
// --userconfig, --globalconfig, --node-options and --template. Per
// program:
//
//   - git: -c, --git-dir, --work-tree, --namespace; clone and ls-remote
//     -u; rebase and difftool -x; git config keys that name programs
//     (core.sshCommand, core.fsmonitor, core.pager, core.editor,
//     core.hooksPath, alias.*, *.textconv, filter and merge drivers,
//     credential helpers, gpg programs, include paths …)
//   - go: -exec, -toolexec, -vettool, -ldflags naming an external linker
//     (-extld), -compiler
//   - find: -exec, -execdir, -ok, -okdir
//   - rsync: -e
//   - ssh, scp, sftp: -o ProxyCommand / LocalCommand / PermitLocalCommand
//     / KnownHostsCommand, -F (a config file), -S (scp, sftp: the ssh
//     program), -D (sftp: the server program)
//   - tar: -I, -F
//   - npm, npx, pnpm, yarn: -c (a command string)
//   - curl: -K (options from a file)
func programOption(s Simple) string {
	name := s.Program()
	perProgram := programOptionsOf(name)
	for i := 1; i < len(s.Words); i++ {
		w := s.Words[i]
		if !s.literal(i) {
			if s.mayBeOption(i) && perProgram != nil {
				return w
			}
			continue
		}
		if w == "--" {
			break
		}
		if namesProgramLong(w) {
			return w
		}
		if perProgram != nil {
			if opt := perProgram(s, i); opt != "" {
				return opt
			}
		}
	}
	return ""
}

// programLongOptions returns the long options that name a program to
// run (or a configuration that can) whatever the program.
func programLongOptions() []string {
	return []string{"receive-pack", "upload-pack", "exec", "exec-path", "config", "config-env",
		"script-shell", "pager", "editor", "use-compress-program", "compress-program", "rsh", "rsync-path",
		"to-command", "rsh-command", "rmt-command", "info-script", "new-volume-script", "checkpoint-action",
		"sendmail-cmd", "extcmd", "userconfig", "globalconfig", "node-options", "template"}
}

// namesProgramLong reports whether w is one of programLongOptions, in
// full or abbreviated to three letters or more, with or without a value.
func namesProgramLong(w string) bool {
	if !strings.HasPrefix(w, "--") {
		return false
	}
	name, _, _ := strings.Cut(w[2:], "=")
	if len(name) < 3 {
		return false
	}
	for _, full := range programLongOptions() {
		if strings.HasPrefix(full, name) {
			return true
		}
	}
	return false
}

// programOptionsOf returns the check of a program's own options that
// name programs, or nil when it has none beyond the common ones. The
// check looks at word i (literal) and returns the offending text.
func programOptionsOf(name string) func(s Simple, i int) string {
	switch name {
	case "git":
		return gitProgramOption
	case "go":
		return goProgramOption
	case "find":
		return func(s Simple, i int) string {
			switch s.Words[i] {
			case "-exec", "-execdir", "-ok", "-okdir":
				return s.Words[i]
			}
			return ""
		}
	case "rsync":
		return shortOption("e")
	case "ssh", "scp", "sftp":
		return sshProgramOption
	case "tar":
		return shortOption("IF")
	case "npm", "npx", "pnpm", "yarn":
		return shortOption("c")
	case "curl":
		return shortOption("K")
	}
	return nil
}

// shortOption returns a check for the short options in letters, alone
// or in a cluster.
func shortOption(letters string) func(s Simple, i int) string {
	return func(s Simple, i int) string {
		if w := s.Words[i]; len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.ContainsAny(w[1:], letters) {
			return w
		}
		return ""
	}
}

// gitProgramOption checks one word of a git command line.
func gitProgramOption(s Simple, i int) string {
	w := s.Words[i]
	name, _, _ := strings.Cut(w, "=")
	switch name {
	case "-c", "--git-dir", "--work-tree", "--namespace":
		return w
	}
	if strings.HasPrefix(w, "-c") && !strings.HasPrefix(w, "--") && len(w) > 2 {
		return w // -ckey=value
	}
	sub := gitSubcommand(s)
	switch {
	case (sub == "clone" || sub == "ls-remote") && w == "-u",
		(sub == "rebase" || sub == "difftool") && (w == "-x" || (strings.HasPrefix(w, "-x") && !strings.HasPrefix(w, "--"))):
		return w
	case sub == "config" && !strings.HasPrefix(w, "-") && gitProgramKey(w):
		return w
	}
	return ""
}

// gitSubcommand returns git's sub-command: the first word that is not an
// option.
func gitSubcommand(s Simple) string {
	for i := 1; i < len(s.Words); i++ {
		if !strings.HasPrefix(s.Words[i], "-") {
			return s.Words[i]
		}
	}
	return ""
}

// gitProgramKey reports whether a git configuration key names a program
// git runs, or a file or pattern that brings such keys in.
func gitProgramKey(key string) bool {
	k := strings.ToLower(key)
	for _, prefix := range []string{"alias.", "include.", "includeif.", "pager.", "sendemail.", "filter.", "url."} {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	for _, suffix := range []string{"sshcommand", "fsmonitor", ".pager", ".editor", "hookspath", "askpass", "gitproxy",
		".external", ".helper", "program", ".textconv", ".command", ".cmd", ".driver", ".receivepack", ".uploadpack",
		"packobjectshook", "difffilter", ".worktree", ".attributesfile", ".excludesfile"} {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

// goProgramOption checks one word of a go command line (go flags take
// one or two dashes).
func goProgramOption(s Simple, i int) string {
	w := s.Words[i]
	if !strings.HasPrefix(w, "-") {
		return ""
	}
	name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-"), "=")
	switch name {
	case "exec", "toolexec", "vettool", "compiler":
		return w
	case "ldflags":
		if !hasValue && i+1 < len(s.Words) {
			value = s.Words[i+1]
		}
		if strings.Contains(value, "extld") || (!hasValue && i+1 < len(s.Words) && !s.literal(i+1)) {
			return w
		}
	}
	return ""
}

// sshProgramOption checks one word of an ssh, scp or sftp command line.
func sshProgramOption(s Simple, i int) string {
	w := s.Words[i]
	name := s.Program()
	switch {
	case w == "-F", strings.HasPrefix(w, "-F"):
		return w
	case (name == "scp" || name == "sftp") && strings.HasPrefix(w, "-S"):
		return w
	case name == "sftp" && strings.HasPrefix(w, "-D"):
		return w
	case strings.HasPrefix(w, "-o"):
		value := w[2:]
		if value == "" && i+1 < len(s.Words) {
			if !s.literal(i + 1) {
				return w
			}
			value = s.Words[i+1]
		}
		key, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(value)), "=")
		key, _, _ = strings.Cut(key, " ")
		switch strings.TrimSpace(key) {
		case "proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "include", "match":
			return w + " " + value
		}
	}
	return ""
}
