package command

import (
	"fmt"
	"strings"
)

// ReadOnly reports whether s only reads: it is on the curated read-only
// list below, used the way the list allows, and prefixed only by
// environment variables that change formatting or locale. A read-only
// command may still write the files Command.Writes names for it (its
// redirections, tee's files, sort -o, sed -i, find -fprint …): the
// policy checks those separately. When ok is false, reason says why, as
// a clause such as `"rm" is not read-only`.
//
// The list, and what each entry allows:
//
//   - any arguments: cat, ls, head, tail, wc, nl, cut, tr, column, diff,
//     cmp, comm, paste, join, fold, fmt, expand, unexpand, tac, rev, od,
//     hexdump, strings, stat, du, df, pwd, echo, printf, true, false, :,
//     sleep, seq, expr, factor, numfmt, cal, yes, tsort, base32,
//     base64, which, type, whoami, id, groups, users, logname, uname,
//     arch, nproc, getconf, locale, tty, pgrep, uptime, free, who, w,
//     printenv, basename, dirname, realpath, readlink, grep, egrep,
//     fgrep, the checksum tools (md5sum, sha*sum, b2sum, cksum,
//     shasum), cd, pushd, popd, dirs, read, mapfile, readarray,
//     getopts, exit, return, wait, break, continue, shift, times,
//     hash, tee (its files are writes)
//   - test, [: unless -v (or a word known only when it runs) comes
//     before an operand that is not a plain name (bash evaluates
//     subscripts)
//   - jobs: listing; jobs -x runs its operands, which Parse follows
//   - env: running nothing (it prints the environment); command: -v and
//     -V only (they look names up). Parse follows both to what they run
//   - hostname: with no argument (an argument sets the name)
//   - ps: without the BSD option e (it shows environments)
//   - date: without -s/--set and with no operand but a +FORMAT
//   - sort: without --compress-program (-o and -T are writes)
//   - uniq: any (its output operand is a write)
//   - file: without -C (it compiles a magic file into the directory)
//   - tree: without -R (it writes HTML files); -o is a write
//   - find: without -delete; -exec/-execdir/-ok/-okdir run commands
//     judged on their own; -fprint* and -fls are writes
//   - sed: without -f, and no w, W or e command, s///w or s///e flag, in
//     every script (GNU and, where it is the system's, BSD reading); -i
//     makes its files writes, r and R files are reads
//   - awk, gawk, mawk, nawk: a literal program that does not call
//     system, has no "|" (pipes; "||" is fine), no ">" inside a print or
//     printf statement (output files; comparisons are fine), no "<"
//     after getline (input files), no ARGV or ARGC and no "@", and no
//     option but -F, -v and -e
//   - rg: without --pre and --hostname-bin (which run programs)
//   - ag: without --pager
//   - fd, fdfind: without -x/-X/--exec/--exec-batch
//   - yq: without -s/--split-exp (which writes files) and the load
//     operators (which read any file); -i is a write
//   - jq: without import and include (which read modules from anywhere)
//   - gofmt: any (-w and -cpuprofile are writes)
//   - set: only -e -u -x -v -f -E -C and -o errexit, nounset, pipefail,
//     xtrace, verbose, noglob, noclobber, errtrace (and their + forms)
//   - shopt: only globstar, nullglob, dotglob, extglob, failglob,
//     nocaseglob, nocasematch, lastpipe, inherit_errexit
//   - git: status, rev-parse, ls-files, ls-tree, cat-file, rev-list,
//     merge-base, name-rev, show-ref, for-each-ref, describe,
//     count-objects, check-ignore, check-attr, var, version, blame,
//     annotate; log, show, diff, whatchanged, diff-tree, diff-index,
//     diff-files, range-diff, shortlog without --output and --ext-diff;
//     grep without -O; branch and tag listing; remote -v and get-url;
//     config get/list; stash list/show; worktree list; reflog; notes
//     list/show. Before the sub-command only --no-pager, -P,
//     --no-optional-locks, --no-replace-objects, --no-advice and the
//     pathspec options (never -c, -C, --exec-path, --git-dir …). The
//     details are in git.go
//   - go: version, env (without -w/-u), list (without -export,
//     -compiled, and -m with operands or -u/-versions/-retracted, which
//     download), vet, doc (without -http, which downloads and runs
//     pkgsite), help, without -toolexec, -exec, -vettool, -C, -mod=mod
//     and -debug-*
//   - node, python, python3, gcc, clang, make, perl, ruby, java, deno:
//     asked their version only (--version; -v for node, -V for python)
//
// For programs whose options could run or write something (sort, uniq,
// file, tree, find, sed, awk, rg, ag, fd, yq, gofmt, date, git, go), an
// argument that is not literal and could expand to an option makes the
// command not read-only; cat, grep, ls and the other "any arguments"
// programs take such arguments.
//
// Deliberately left out: less, more and man (pagers can run commands),
// xxd, iconv, shuf, split, sdiff (they write files named by operands),
// bc and dc (dc runs shell commands), and every interpreter or build
// tool.
func ReadOnly(s Simple) (ok bool, reason string) {
	if len(s.Words) == 0 {
		return false, "an empty command is not read-only"
	}
	if !s.literal(0) {
		return false, fmt.Sprintf("the program %s is known only when it runs", s.Words[0])
	}
	for _, kv := range s.Env {
		name, value, _ := strings.Cut(kv, "=")
		name = strings.TrimSuffix(name, "+")
		// A value that is not literal is kept as written, which never
		// equals the literal values classifyEnv lets through.
		if classifyEnv(name, value, true) != envHarmless {
			return false, fmt.Sprintf("%s with %s= is not read-only", display(s), name)
		}
	}
	check := readOnlyCheck(s.Program())
	if check == nil {
		return false, fmt.Sprintf("%s is not read-only", display(s))
	}
	return check(s)
}

// readOnlyProgram reports whether name is on the read-only list at all.
func readOnlyProgram(name string) bool {
	return readOnlyCheck(name) != nil
}

// readOnlyCheck returns the check the read-only list holds for a
// program, or nil when the program is not on it.
func readOnlyCheck(name string) func(Simple) (bool, string) {
	switch name {
	case "cat", "ls", "head", "tail", "wc", "nl", "cut", "tr", "column", "diff", "cmp", "comm", "paste",
		"join", "fold", "fmt", "expand", "unexpand", "tac", "rev", "od", "hexdump", "strings", "stat", "du",
		"df", "pwd", "echo", "printf", "true", "false", ":", "sleep", "seq", "expr", "factor",
		"numfmt", "cal", "yes", "tsort", "base32", "base64", "which", "type", "whoami", "id", "groups",
		"users", "logname", "uname", "arch", "nproc", "getconf", "locale", "tty", "pgrep", "uptime",
		"free", "who", "w", "printenv", "basename", "dirname", "realpath", "readlink", "grep", "egrep",
		"fgrep", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
		"cksum", "shasum", "cd", "pushd", "popd", "dirs", "read", "exit", "return", "wait", "break",
		"continue", "shift", "times", "jobs", "hash", "tee", "uniq", "mapfile", "readarray", "getopts":
		return anyArguments
	case "test", "[":
		return testReadOnly
	case "ps":
		return psReadOnly
	case "env":
		return envReadOnly
	case "command":
		return commandReadOnly
	case "hostname":
		return noArguments
	case "date":
		return dateReadOnly
	case "sort":
		return refuseLong("--compress-program")
	case "file":
		return refuseOptions(flagSpec{short: "efFmP"}, "-C", "--compile")
	case "tree":
		return refuseOptions(flagSpec{short: "LPIoHT"}, "-R", "")
	case "find":
		return findReadOnly
	case "sed":
		return knownArguments(sedReadOnly)
	case "awk", "gawk", "mawk", "nawk":
		return awkReadOnly
	case "rg":
		return refuseLong("--pre", "--hostname-bin")
	case "ag":
		return refuseLong("--pager")
	case "fd", "fdfind":
		return fdReadOnly
	case "yq":
		return refuseWords(refuseOptions(flagSpec{short: "fIops"}, "-s", "--split-exp"),
			"yq's load operators read files the policy cannot place", "load")
	case "jq":
		return refuseWords(anyArguments, "jq's import and include read files the policy cannot place",
			"import", "include")
	case "gofmt":
		return knownArguments(anyArguments)
	case "set":
		return setReadOnly
	case "shopt":
		return shoptReadOnly
	case "git":
		return gitReadOnly
	case "go":
		return goReadOnly
	case "node":
		return versionOnly("--version", "-v")
	case "python", "python3":
		return versionOnly("--version", "-V")
	case "gcc", "clang", "make", "perl", "ruby", "java", "deno":
		return versionOnly("--version")
	}
	return nil
}

// anyArguments allows the program with any arguments.
func anyArguments(Simple) (bool, string) { return true, "" }

// envReadOnly allows env when it runs nothing: it prints the
// environment. Parse follows env to the command it runs.
func envReadOnly(s Simple) (bool, string) {
	for i := 1; i < len(s.Words); i++ {
		if !s.literal(i) || !(strings.HasPrefix(s.Words[i], "-") || isAssignmentWord(s, i)) {
			return false, "env running a command is not read-only"
		}
	}
	return true, ""
}

// testReadOnly allows test and [ unless -v may meet an operand that is
// not a plain name: bash evaluates the subscript of "-v 'a[$(cmd)]'" as
// arithmetic, which runs the command substitution in it. A word known
// only when it runs may itself be the -v.
func testReadOnly(s Simple) (bool, string) {
	for i := 1; i+1 < len(s.Words); i++ {
		mayBeV := s.Words[i] == "-v" || (!s.literal(i) && s.mayBeOption(i))
		next := s.Words[i+1]
		if mayBeV && (!s.literal(i+1) || strings.Contains(next, "[")) {
			return false, fmt.Sprintf("%s -v %s evaluates a subscript, which can run commands", display(s), next)
		}
	}
	return true, ""
}

// psReadOnly allows ps unless it shows processes' environments (the BSD
// option e, as in "ps auxe"), which hold the secrets kept from commands.
func psReadOnly(s Simple) (bool, string) {
	return knownArguments(func(s Simple) (bool, string) {
		for i := 1; i < len(s.Words); i++ {
			if w := s.Words[i]; !strings.HasPrefix(w, "-") && strings.Contains(w, "e") {
				return false, fmt.Sprintf("ps %s shows processes' environments", w)
			}
		}
		return true, ""
	})(s)
}

// commandReadOnly allows command -v and -V, which look names up. Parse
// follows command to the program it runs otherwise.
func commandReadOnly(s Simple) (bool, string) {
	if _, ok := anyOption(scan(s, 1, flagSpec{posix: true}), "-v", "-V"); ok {
		return true, ""
	}
	return false, "command running a program is not read-only"
}

// noArguments allows the program alone.
func noArguments(s Simple) (bool, string) {
	if len(s.Words) > 1 {
		return false, fmt.Sprintf("%s with arguments is not read-only", display(s))
	}
	return true, ""
}

// knownArguments wraps check: first, no argument may be an expansion
// that could become an option.
func knownArguments(check func(Simple) (bool, string)) func(Simple) (bool, string) {
	return func(s Simple) (bool, string) {
		for i := 1; i < len(s.Words); i++ {
			if !s.literal(i) && s.mayBeOption(i) {
				return false, fmt.Sprintf("%s with %s, known only when it runs, is not read-only", display(s), s.Words[i])
			}
		}
		return check(s)
	}
}

// refuseLong allows the program unless a word is one of the long
// options given (in full or abbreviated).
func refuseLong(long ...string) func(Simple) (bool, string) {
	return knownArguments(func(s Simple) (bool, string) {
		if w, ok := anyWordIs(s, long...); ok {
			return false, fmt.Sprintf("%s with %s is not read-only", display(s), w)
		}
		return true, ""
	})
}

// refuseOptions allows the program unless it is given the option short
// or long.
func refuseOptions(spec flagSpec, short, long string) func(Simple) (bool, string) {
	return knownArguments(func(s Simple) (bool, string) {
		for _, o := range scan(s, 1, spec) {
			if o.is(short, long) {
				return false, fmt.Sprintf("%s with %s is not read-only", display(s), o.name)
			}
		}
		if long != "" {
			if w, ok := anyWordIs(s, long); ok {
				return false, fmt.Sprintf("%s with %s is not read-only", display(s), w)
			}
		}
		return true, ""
	})
}

// refuseWords wraps check: no literal word may hold any of words; reason
// says why.
func refuseWords(check func(Simple) (bool, string), reason string, words ...string) func(Simple) (bool, string) {
	return func(s Simple) (bool, string) {
		for i := 1; i < len(s.Words); i++ {
			for _, w := range words {
				if s.literal(i) && strings.Contains(s.Words[i], w) {
					return false, reason
				}
			}
		}
		return check(s)
	}
}

// versionOnly allows the program asked only for its version.
func versionOnly(flags ...string) func(Simple) (bool, string) {
	return func(s Simple) (bool, string) {
		if len(s.Words) == 2 && s.literal(1) && containsString(flags, s.Words[1]) {
			return true, ""
		}
		return false, fmt.Sprintf("%s is not read-only", display(s))
	}
}

// dateReadOnly allows date unless it sets the clock.
func dateReadOnly(s Simple) (bool, string) {
	return knownArguments(func(s Simple) (bool, string) {
		for _, o := range scan(s, 1, flagSpec{short: "dfrs", long: []string{"date", "file", "reference", "set"}}) {
			switch {
			case o.is("-s", "--set"):
				return false, "date -s sets the clock"
			case o.name == "" && !strings.HasPrefix(s.Words[o.index], "+"):
				return false, "date with an operand sets the clock"
			}
		}
		return true, ""
	})(s)
}

// findReadOnly allows find unless it deletes.
func findReadOnly(s Simple) (bool, string) {
	f := parseFind(s)
	switch {
	case f.unknown:
		return false, fmt.Sprintf("%s with an argument known only when it runs is not read-only", display(s))
	case f.deletes:
		return false, "find -delete deletes files"
	}
	return true, ""
}

// fdReadOnly allows fd unless it runs commands.
func fdReadOnly(s Simple) (bool, string) {
	if ok, reason := refuseLong("--exec", "--exec-batch")(s); !ok {
		return false, reason
	}
	for i := 1; i < len(s.Words); i++ {
		w := s.Words[i]
		if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsAny(w, "xX") {
			return false, fmt.Sprintf("%s with %s runs commands", display(s), w)
		}
	}
	return true, ""
}

// awkReadOnly allows awk with a literal program that can neither run
// commands nor write files.
func awkReadOnly(s Simple) (bool, string) {
	opts := scan(s, 1, flagSpec{short: "Fve", long: []string{"field-separator", "assign", "source"}})
	var program string
	hasProgram := false
	for _, o := range opts {
		switch {
		case o.unknown:
			return false, fmt.Sprintf("%s with %s, known only when it runs, is not read-only", display(s), s.Words[o.index])
		case o.is("-e", "--source"):
			if !s.literal(o.index) || (o.valueIndex >= 0 && !s.literal(o.valueIndex)) {
				return false, "awk with a program known only when it runs is not read-only"
			}
			program += "\n" + o.value
			hasProgram = true
		case o.is("-F", "--field-separator"), o.is("-v", "--assign"):
		case o.name == "" && !hasProgram:
			if !s.literal(o.index) {
				return false, "awk with a program known only when it runs is not read-only"
			}
			program, hasProgram = s.Words[o.index], true
		case o.name != "":
			return false, fmt.Sprintf("awk %s is not read-only", o.name)
		}
	}
	if !hasProgram {
		return false, "awk without a program is not read-only"
	}
	if reason := awkUnsafe(program); reason != "" {
		return false, reason
	}
	return true, ""
}

// awkUnsafe returns why an awk program may run commands, write files or
// read files its operands do not name: a call of system, a pipe ("|",
// not "||"), a ">" inside a print or printf statement (output to a file;
// ">" elsewhere compares), a "<" after getline (input from a file), ARGV
// or ARGC (which choose the files read), or gawk's "@" (extensions,
// indirect calls). String literals are skipped.
func awkUnsafe(program string) string {
	inPrint, inGetline := false, false
	for i := 0; i < len(program); i++ {
		c := program[i]
		switch {
		case c == '"':
			for i++; i < len(program) && program[i] != '"'; i++ {
				if program[i] == '\\' {
					i++
				}
			}
		case c == '|':
			if i+1 < len(program) && program[i+1] == '|' {
				i++
				continue
			}
			return `an awk program with "|" runs commands`
		case c == '>' && inPrint:
			return "an awk program with print > writes files"
		case c == '<' && inGetline:
			return "an awk program with getline < reads a file the policy cannot place"
		case c == '@':
			return `an awk program with "@" can load extensions or call functions by name`
		case c == ';' || c == '}' || c == '{' || c == '\n':
			inPrint, inGetline = false, false
		case c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z'):
			j := i
			for j < len(program) && (program[j] == '_' || ('a' <= program[j] && program[j] <= 'z') ||
				('A' <= program[j] && program[j] <= 'Z') || ('0' <= program[j] && program[j] <= '9')) {
				j++
			}
			switch program[i:j] {
			case "system":
				return "an awk program that calls system runs commands"
			case "print", "printf":
				inPrint = true
			case "getline":
				inGetline = true
			case "ARGV", "ARGC":
				return "an awk program that uses " + program[i:j] + " can read files its operands do not name"
			}
			i = j - 1
		}
	}
	return ""
}

// setReadOnly allows set with the options that only make a script
// stricter or louder.
func setReadOnly(s Simple) (bool, string) {
	for i := 1; i < len(s.Words); i++ {
		w := s.Words[i]
		switch {
		case !s.literal(i):
			return false, fmt.Sprintf("set %s is not read-only", w)
		case len(w) > 1 && (w[0] == '-' || w[0] == '+') && strings.Trim(w[1:], "euxvfEC") == "":
		case len(w) > 1 && (w[0] == '-' || w[0] == '+') && strings.Trim(w[1:len(w)-1], "euxvfEC") == "" && w[len(w)-1] == 'o':
			// -o NAME (or a cluster ending in o, such as -euo NAME).
			if i+1 >= len(s.Words) {
				return true, "" // lists the options
			}
			i++
			switch s.Words[i] {
			case "errexit", "nounset", "pipefail", "xtrace", "verbose", "noglob", "noclobber", "errtrace":
			default:
				return false, fmt.Sprintf("set -o %s is not read-only", s.Words[i])
			}
		default:
			return false, fmt.Sprintf("set %s is not read-only", w)
		}
	}
	return true, ""
}

// shoptReadOnly allows shopt with the options that change globbing and
// matching.
func shoptReadOnly(s Simple) (bool, string) {
	for i := 1; i < len(s.Words); i++ {
		w := s.Words[i]
		switch {
		case !s.literal(i):
			return false, fmt.Sprintf("shopt %s is not read-only", w)
		case w == "-s" || w == "-u" || w == "-q" || w == "-p":
		case containsString([]string{"globstar", "nullglob", "dotglob", "extglob", "failglob", "nocaseglob",
			"nocasematch", "lastpipe", "inherit_errexit"}, w):
		default:
			return false, fmt.Sprintf("shopt %s is not read-only", w)
		}
	}
	return true, ""
}
