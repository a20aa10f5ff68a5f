package command

import (
	"fmt"
	"strings"
)

// unwrap returns the command a wrapper runs (nil when it runs none), and
// whether s is a wrapper at all. The wrappers followed: env, nohup,
// nice, timeout, time, stdbuf, setsid, ionice, command, builtin, exec,
// busybox, xargs and jobs -x; sudo and its kind are followed (so a reject rule
// still sees the command) but make the line opaque.
func (p *parser) unwrap(s Simple, name string) (*Simple, bool) {
	switch name {
	case "env":
		return p.unwrapEnv(s)
	case "nohup", "setsid":
		return p.unwrapAt(s, name, flagSpec{posix: true}, 0)
	case "nice":
		return p.unwrapAt(s, name, flagSpec{short: "n", long: []string{"adjustment"}, posix: true}, 0)
	case "stdbuf":
		return p.unwrapAt(s, name, flagSpec{short: "ioe", long: []string{"input", "output", "error"}, posix: true}, 0)
	case "timeout":
		// The first operand is the duration.
		return p.unwrapAt(s, name, flagSpec{short: "sk", long: []string{"signal", "kill-after"}, posix: true}, 1)
	case "ionice":
		if _, ok := anyOption(scan(s, 1, flagSpec{short: "cnpPu", posix: true}), "-p", "-P", "-u"); ok {
			return nil, false // changes running processes: a command of its own
		}
		return p.unwrapAt(s, name, flagSpec{short: "cnpPu", long: []string{"class", "classdata"}, posix: true}, 0)
	case "time":
		spec := flagSpec{short: "fo", long: []string{"format", "output"}, posix: true}
		for _, o := range scan(s, 1, spec) {
			if o.is("-o", "--output") {
				p.writeValue(s, o, "time -o")
			}
		}
		return p.unwrapAt(s, name, spec, 0)
	case "command":
		opts := scan(s, 1, flagSpec{posix: true})
		if _, ok := anyOption(opts, "-v", "-V"); ok {
			return nil, false // looks a name up: a command of its own
		}
		return p.unwrapAt(s, name, flagSpec{posix: true}, 0)
	case "builtin", "busybox":
		if len(s.Words) < 2 {
			return nil, false
		}
		return p.unwrapAt(s, name, flagSpec{posix: true}, 0)
	case "exec":
		inner, _ := p.unwrapAt(s, name, flagSpec{short: "a", posix: true}, 0)
		return inner, true
	case "xargs":
		return p.unwrapXargs(s)
	case "jobs":
		return p.unwrapJobs(s)
	case "sudo", "doas", "su", "pkexec", "runuser", "run0", "chroot", "unshare", "nsenter",
		"setpriv", "gosu", "su-exec", "firejail", "bwrap":
		p.opaque("%s runs a command with other privileges or in another root, which is never allowed without asking", name)
		switch name {
		case "sudo", "doas":
			inner, _ := p.unwrapAt(s, name, flagSpec{short: "CDghpRrTUu", posix: true}, 0)
			return inner, true
		case "su", "runuser":
			for _, o := range scan(s, 1, flagSpec{short: "cgGsw", long: []string{"command", "group", "shell"}}) {
				if o.is("-c", "--command") {
					p.hiddenString(s, o.valueIndex, o.value, name+" -c")
					return nil, true
				}
			}
		}
		p.unknownRun("cannot tell what %s runs", name)
		return nil, true
	}
	return nil, false
}

// unwrapAt returns the command that follows a wrapper's options and its
// first skip operands. Every word before that command must be known: an
// expansion there could shift which word is the program.
func (p *parser) unwrapAt(s Simple, name string, spec flagSpec, skip int) (*Simple, bool) {
	for _, o := range scan(s, 1, spec) {
		if o.unknown || (o.valueIndex >= 0 && !s.literal(o.valueIndex) && s.mayBeOption(o.valueIndex)) {
			p.unknownRun("cannot tell what %s runs: %s is known only when it runs", name, s.Words[o.index])
			return nil, true
		}
		if o.name != "" {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		inner := s.sub(o.index)
		return &inner, true
	}
	if len(s.Words) > 1 && skip == 0 {
		// Options only, or a "--" with nothing after it.
		return nil, true
	}
	return nil, false
}

// unwrapEnv follows env: its NAME=value words join the command's
// environment. env with no command prints the environment: a command of
// its own.
func (p *parser) unwrapEnv(s Simple) (*Simple, bool) {
	spec := flagSpec{short: "uCS", long: []string{"unset", "chdir", "split-string"}, posix: true}
	env := append([]string(nil), s.Env...)
	for _, o := range scan(s, 1, spec) {
		switch {
		case o.unknown:
			p.unknownRun("cannot tell what env runs: %s is known only when it runs", s.Words[o.index])
			return nil, true
		case o.is("-C", "--chdir"):
			p.opaque("env -C runs a command in another directory, which cannot be followed")
			return nil, true
		case o.is("-S", "--split-string"):
			p.opaque("env -S splits a string into a command, which cannot be judged")
			p.hiddenString(s, o.valueIndex, o.value, "env -S")
			return nil, true
		case o.name == "-i" || o.name == "-0" || o.name == "-v" || o.is("-u", "--unset") ||
			o.is("", "--ignore-environment") || o.is("", "--null") || o.is("", "--debug") ||
			strings.HasPrefix(o.name, "--default-signal") || strings.HasPrefix(o.name, "--ignore-signal") ||
			strings.HasPrefix(o.name, "--block-signal") || o.is("", "--list-signal-handling"):
		case o.name != "":
			p.opaque("env %s cannot be judged", o.name)
			return nil, true
		case isAssignmentWord(s, o.index):
			kv := s.Words[o.index]
			name, value, _ := strings.Cut(kv, "=")
			p.checkAssign(name, value, s.literal(o.index))
			env = append(env, kv)
		case !s.literal(o.index):
			p.unknownRun("cannot tell what env runs: %s is known only when it runs", s.Words[o.index])
			return nil, true
		default:
			inner := s.sub(o.index)
			inner.Env = env
			return &inner, true
		}
	}
	return nil, false
}

// isAssignmentWord reports whether word i of s is NAME=value.
func isAssignmentWord(s Simple, i int) bool {
	name, _, ok := strings.Cut(s.Words[i], "=")
	return ok && validName(name) && (s.literal(i) || !strings.ContainsAny(name, "$`\"'\\"))
}

// unwrapXargs follows xargs. Its command gets arguments read when it
// runs (appended, or in place of the -I string), so it is judged with
// arguments that are not literal and may be options, and the line is
// opaque unless that command is read-only whatever those arguments are.
func (p *parser) unwrapXargs(s Simple) (*Simple, bool) {
	spec := flagSpec{
		short:    "adEILnPs",
		attached: "eil",
		long:     []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
		posix:    true,
	}
	replace := ""
	start := len(s.Words)
	for _, o := range scan(s, 1, spec) {
		switch {
		case o.unknown || (o.valueIndex >= 0 && !s.literal(o.valueIndex)):
			p.unknownRun("cannot tell what xargs runs: %s is known only when it runs", s.Words[o.index])
			return nil, true
		case o.name == "":
			start = o.index
		case o.name == "-I" || o.is("", "--replace"):
			replace = o.value
			if replace == "" {
				replace = "{}"
			}
		case o.name == "-i":
			replace = o.value
			if replace == "" {
				replace = "{}"
			}
		case o.is("", "--process-slot-var"):
			p.opaque("xargs --process-slot-var sets a variable in the command's environment, which cannot be judged")
			return nil, true
		case strings.IndexByte("0adEeLlnPsrtpxo", o.name[1]) >= 0 && len(o.name) == 2,
			o.is("", "--null"), o.is("", "--arg-file"), o.is("", "--delimiter"), o.is("", "--eof"),
			o.is("", "--max-lines"), o.is("", "--max-args"), o.is("", "--max-procs"), o.is("", "--max-chars"),
			o.is("", "--no-run-if-empty"), o.is("", "--verbose"), o.is("", "--interactive"), o.is("", "--exit"),
			o.is("", "--open-tty"), o.is("", "--show-limits"):
		default:
			p.opaque("xargs %s cannot be judged", o.name)
			return nil, true
		}
		if start < len(s.Words) {
			break
		}
	}
	inner := Simple{Env: s.Env, Words: []string{"echo"}, Literal: []bool{true}, optionFree: []bool{true},
		paths: []wordPaths{{}}}
	if start < len(s.Words) {
		inner = s.sub(start)
		inner.Words = append([]string(nil), inner.Words...)
		inner.Literal = append([]bool(nil), inner.Literal...)
		inner.optionFree = append([]bool(nil), inner.optionFree...)
		inner.paths = append([]wordPaths(nil), inner.paths...)
	}
	fromInput := wordPaths{unknown: "xargs puts there what it reads from its input"}
	if replace != "" {
		for i, w := range inner.Words {
			if i > 0 && strings.Contains(w, replace) {
				inner.Literal[i] = false
				inner.optionFree[i] = inner.optionFree[i] && !strings.HasPrefix(w, replace)
				if i < len(inner.paths) {
					inner.paths[i] = fromInput
				}
			}
		}
	} else {
		inner.Words = append(inner.Words, "{input}")
		inner.Literal = append(inner.Literal, false)
		inner.optionFree = append(inner.optionFree, false)
		if len(inner.paths) == len(inner.Words)-1 {
			inner.paths = append(inner.paths, fromInput)
		}
	}
	if ok, _ := ReadOnly(inner); !ok {
		p.opaque("xargs runs %s with arguments it reads when it runs, which cannot be judged", display(inner))
	}
	return &inner, true
}

// unwrapJobs follows jobs -x, which runs its operands as a command (its
// job specs replaced by process ids); jobs without -x lists jobs, a
// command of its own.
func (p *parser) unwrapJobs(s Simple) (*Simple, bool) {
	run := false
	for _, o := range scan(s, 1, flagSpec{posix: true}) {
		switch {
		case o.unknown:
			p.unknownRun("cannot tell what jobs runs: %s is known only when it runs", s.Words[o.index])
			return nil, true
		case o.name == "-x":
			run = true
		case o.name == "" && run:
			inner := s.sub(o.index)
			return &inner, true
		}
	}
	return nil, run
}

// anyOption returns the first of opts named one of names.
func anyOption(opts []option, names ...string) (option, bool) {
	for _, o := range opts {
		for _, n := range names {
			if o.name == n {
				return o, true
			}
		}
	}
	return option{}, false
}

// display names a simple command in a reason: its program and the
// sub-command words a rule would keep, quoted.
func display(s Simple) string {
	words := prefixOf(s)
	if len(words) == 0 {
		words = s.Words[:1]
	}
	return fmt.Sprintf("%q", strings.Join(words, " "))
}
