package command

import (
	"strconv"
	"strings"
)

// Kind is how a bash call is shown to the user.
type Kind string

// The kinds Present returns.
const (
	// KindRead is a plain read of one file: cat, head, tail, sed -n 'A,Bp'.
	KindRead Kind = "read"
	// KindSearch is a search: rg, grep, egrep, fgrep, ag, fd, find, git grep.
	KindSearch Kind = "search"
	// KindDiff is git diff or git show: the output is a unified diff.
	KindDiff Kind = "diff"
	// KindExecute is every other command: shown as a live terminal.
	KindExecute Kind = "execute"
)

// Presentation is how a bash call is shown. It decides nothing about
// what runs: the command runs the same whatever its presentation.
type Presentation struct {
	Kind Kind
	// Path is, for a read, the file read; for a search, the one root
	// searched ("" when there are several, or it is not literal); for a
	// diff, the one path given after "--". It is as written in the
	// command, relative to the command's directory unless absolute.
	Path string
	// Line is, for a read, the first line shown when known (1 for cat
	// and head, N for tail -n +N and sed -n 'N,Mp'), 0 otherwise.
	Line int
}

// Present classifies a command line for display. Only a line that is one
// simple read-only command, with no redirection but to /dev/null or
// another descriptor and nothing opaque, is more than KindExecute.
func Present(src string) Presentation {
	execute := Presentation{Kind: KindExecute}
	c, err := Parse(src)
	if err != nil || len(c.Opaque) > 0 || len(c.Simple) != 1 || len(c.Writes) > 0 || c.input {
		return execute
	}
	s := c.Simple[0]
	if ok, _ := ReadOnly(s); !ok {
		return execute
	}
	switch s.Program() {
	case "cat":
		return readOf(s, flagSpec{}, 1)
	case "head":
		return readOf(s, flagSpec{short: "nc", long: []string{"lines", "bytes"}}, 1)
	case "tail":
		return presentTail(s)
	case "sed":
		return presentSed(s)
	case "grep", "egrep", "fgrep":
		return searchOf(s, grepSpec(), true)
	case "rg":
		return searchOf(s, rgSpec(), true)
	case "ag":
		return searchOf(s, flagSpec{short: "ABCGgm", long: []string{"after", "before", "context", "depth",
			"file-search-regex", "ignore", "ignore-dir", "max-count"}}, true)
	case "fd", "fdfind":
		return searchOf(s, flagSpec{short: "dEetcjSo", long: []string{"max-depth", "min-depth", "exact-depth",
			"exclude", "extension", "type", "color", "threads", "size", "owner", "changed-within",
			"changed-before", "max-results", "base-directory", "search-path", "ignore-file"}}, true)
	case "find":
		f := parseFind(s)
		p := Presentation{Kind: KindSearch, Path: "."}
		if len(f.roots) > 0 {
			p.Path = literalOnly(s, f.roots)
		}
		return p
	case "git":
		return presentGit(s)
	}
	return execute
}

// readOf presents a read of the one file operand of s, from line.
func readOf(s Simple, spec flagSpec, line int) Presentation {
	ops := operands(scan(s, 1, spec))
	if len(ops) != 1 || !s.literal(ops[0].index) || s.Words[ops[0].index] == "-" {
		return Presentation{Kind: KindExecute}
	}
	return Presentation{Kind: KindRead, Path: s.Words[ops[0].index], Line: line}
}

// presentTail presents tail of one file: from line N for -n +N, from an
// unknown line otherwise.
func presentTail(s Simple) Presentation {
	spec := flagSpec{short: "ncs", long: []string{"lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"}}
	line := 0
	for _, o := range scan(s, 1, spec) {
		if rest, ok := strings.CutPrefix(o.value, "+"); ok && o.is("-n", "--lines") {
			if n, err := strconv.Atoi(rest); err == nil {
				line = n
			}
		}
	}
	return readOf(s, spec, line)
}

// presentSed presents sed -n 'A,Bp' FILE (or 'Ap') as a read from line A.
func presentSed(s Simple) Presentation {
	execute := Presentation{Kind: KindExecute}
	l := parseSed(s, false)
	quiet := false
	for _, o := range scan(s, 1, flagSpec{short: "efl", attached: "i", long: []string{"expression", "file", "line-length"}}) {
		quiet = quiet || o.name == "-n" || o.is("", "--quiet") || o.is("", "--silent")
	}
	if l.err != nil || !quiet || l.inPlace || len(l.scripts) != 1 || len(l.files) != 1 {
		return execute
	}
	line, ok := printRangeStart(l.scripts[0])
	if !ok {
		return execute
	}
	if !s.literal(l.files[0]) {
		return execute
	}
	return Presentation{Kind: KindRead, Path: s.Words[l.files[0]], Line: line}
}

// printRangeStart returns A for a sed script that only prints lines A to
// B ("A,Bp", "A,$p" or "Ap").
func printRangeStart(script string) (int, bool) {
	script = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(script), ";"))
	body, ok := strings.CutSuffix(script, "p")
	if !ok {
		return 0, false
	}
	first, last, isRange := strings.Cut(body, ",")
	first, last = strings.TrimSpace(first), strings.TrimSpace(last)
	if !isNumber(first) || (isRange && last != "$" && !isNumber(last)) {
		return 0, false
	}
	n, err := strconv.Atoi(first)
	return n, err == nil
}

// searchOf presents a search whose first operand is the pattern (unless
// the pattern comes from -e, -f or --files) and whose other operands are
// the roots.
func searchOf(s Simple, spec flagSpec, patternFirst bool) Presentation {
	opts := scan(s, 1, spec)
	var roots []int
	for _, o := range opts {
		if o.is("-e", "--regexp") || o.is("-f", "--file") || o.is("", "--files") {
			patternFirst = false
		}
	}
	for _, o := range operands(opts) {
		if patternFirst {
			patternFirst = false
			continue
		}
		roots = append(roots, o.index)
	}
	p := Presentation{Kind: KindSearch}
	switch {
	case len(roots) > 0:
		p.Path = literalOnly(s, roots)
	case s.Program() != "grep" && s.Program() != "egrep" && s.Program() != "fgrep":
		p.Path = "."
	}
	return p
}

// literalOnly returns the word at the one index given when it is
// literal, "" otherwise.
func literalOnly(s Simple, indexes []int) string {
	if len(indexes) != 1 || !s.literal(indexes[0]) {
		return ""
	}
	return s.Words[indexes[0]]
}

// grepSpec lists grep's options that take a value.
func grepSpec() flagSpec {
	return flagSpec{short: "ABCDdefm", long: []string{"regexp", "file", "after-context", "before-context", "context",
		"max-count", "include", "exclude", "exclude-dir", "exclude-from", "label", "binary-files", "devices",
		"directories", "group-separator"}}
}

// rgSpec lists ripgrep's options that take a value.
func rgSpec() flagSpec {
	return flagSpec{short: "ABCdEefgjMmrTt", long: []string{"regexp", "file", "glob", "iglob", "type", "type-not",
		"type-add", "type-clear", "max-count", "max-depth", "max-filesize", "max-columns", "replace", "context",
		"after-context", "before-context", "encoding", "threads", "sort", "sortr", "colors", "color",
		"context-separator", "field-context-separator", "field-match-separator", "path-separator", "pre-glob",
		"engine", "dfa-size-limit", "regex-size-limit", "ignore-file", "hyperlink-format", "generate"}}
}

// presentGit presents git diff and git show as diffs and git grep as a
// search.
func presentGit(s Simple) Presentation {
	i := 1
	for i < len(s.Words) && strings.HasPrefix(s.Words[i], "-") {
		i++
	}
	if i >= len(s.Words) {
		return Presentation{Kind: KindExecute}
	}
	switch s.Words[i] {
	case "diff", "show":
		p := Presentation{Kind: KindDiff}
		for j := i + 1; j < len(s.Words); j++ {
			if s.Words[j] == "--" && j+2 == len(s.Words) && s.literal(j+1) {
				p.Path = s.Words[j+1]
			}
		}
		return p
	case "grep":
		return Presentation{Kind: KindSearch}
	}
	return Presentation{Kind: KindExecute}
}
