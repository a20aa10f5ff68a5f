package command

import (
	"fmt"
	"slices"
	"strings"
)

// maxHiddenDepth bounds how deep strings run as commands are followed
// (sh -c "eval 'sh -c …'").
const maxHiddenDepth = 4

// unknownRun records that the line may run a program the parse cannot
// name: it is opaque, and with reject rules it asks under every preset.
func (p *parser) unknownRun(format string, args ...any) {
	reason := fmt.Sprintf(format, args...)
	p.opaque("%s", reason)
	if !slices.Contains(p.cmd.unknownRuns, reason) {
		p.cmd.unknownRuns = append(p.cmd.unknownRuns, reason)
	}
}

// hidden follows the commands an opaque program runs from a string: the
// string of sh -c, eval's words, trap's action, mapfile's callback,
// watch's command. A literal string is parsed and its commands kept in
// Command.hidden; any other string, a shell reading its input or a
// script named only when it runs is an unknown run.
func (p *parser) hidden(s Simple, name string) {
	switch name {
	case "eval", "watch":
		words := s.Words[1:]
		if name == "watch" {
			ops := operands(scan(s, 1, flagSpec{short: "dnq", long: []string{"interval", "differences"}, posix: true}))
			if len(ops) == 0 {
				return
			}
			words = s.Words[ops[0].index:]
		}
		for i := len(s.Words) - len(words); i < len(s.Words); i++ {
			if !s.literal(i) {
				p.unknownRun("%s runs %s, a string known only when it runs", name, s.Words[i])
				return
			}
		}
		p.parseHidden(strings.Join(words, " "), name)
	case "trap":
		if ops := operands(scan(s, 1, flagSpec{posix: true})); len(ops) >= 2 {
			p.hiddenString(s, ops[0].index, s.Words[ops[0].index], "trap")
		}
	case "mapfile", "readarray":
		for _, o := range scan(s, 1, flagSpec{short: "dnOsuCc"}) {
			if o.name == "-C" {
				p.hiddenString(s, o.valueIndex, o.value, name+" -C")
			}
		}
	case "source", ".":
		if len(s.Words) > 1 && !s.literal(1) {
			p.unknownRun("%s runs a script named only when it runs", name)
		}
	case "parallel", "flock", "script", "alias", "fc":
		p.unknownRun("cannot tell what %s runs", name)
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "rbash":
		p.hiddenShell(s, name)
	}
}

// hiddenShell follows what a shell runs: its -c string, or, when it reads
// its input or a script named only when it runs, an unknown run.
func (p *parser) hiddenShell(s Simple, name string) {
	opts := scan(s, 1, flagSpec{short: "oO", long: []string{"rcfile", "init-file"}, posix: true})
	command := false
	for _, o := range opts {
		switch {
		case o.unknown:
			p.unknownRun("cannot tell what %s runs: %s is known only when it runs", name, s.Words[o.index])
			return
		case o.name == "-c" || o.is("", "--command"):
			command = true
		case o.name == "-s" || o.name == "-i":
			p.unknownRun("%s %s runs commands from its input", name, o.name)
			return
		}
	}
	ops := operands(opts)
	switch {
	case command && len(ops) > 0:
		p.hiddenString(s, ops[0].index, s.Words[ops[0].index], name+" -c")
	case command:
		p.unknownRun("%s -c without a string", name)
	case len(ops) == 0:
		p.unknownRun("%s runs commands from its input", name)
	case !s.literal(ops[0].index):
		p.unknownRun("%s runs a script named only when it runs", name)
	}
}

// hiddenString follows the string in word i (or an attached value, i
// < 0) that by runs as a command.
func (p *parser) hiddenString(s Simple, i int, value, by string) {
	if i >= 0 && !s.literal(i) {
		p.unknownRun("%s runs %s, a string known only when it runs", by, s.Words[i])
		return
	}
	p.parseHidden(value, by)
}

// parseHidden parses src, a string by runs as a command line, and keeps
// what it runs.
func (p *parser) parseHidden(src, by string) {
	if p.depth >= maxHiddenDepth {
		p.unknownRun("%s runs strings nested too deep to follow", by)
		return
	}
	c, err := parseAt(src, p.depth+1)
	if err != nil {
		p.unknownRun("%s runs a string that cannot be parsed", by)
		return
	}
	p.cmd.hidden = append(p.cmd.hidden, c.Simple...)
	p.cmd.hidden = append(p.cmd.hidden, c.hidden...)
	for _, reason := range c.unknownRuns {
		if !slices.Contains(p.cmd.unknownRuns, reason) {
			p.cmd.unknownRuns = append(p.cmd.unknownRuns, reason)
		}
	}
}
