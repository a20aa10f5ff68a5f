package command

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Command is what the policy needs to know about one bash command line.
type Command struct {
	// Simple lists every simple command the line may run, in the order
	// bash starts them (a substitution before the command whose word
	// holds it): through && || ; | &, subshells, { } blocks,
	// if/while/for/case bodies, function bodies, command substitutions
	// ($(…) and `…` in words, redirections and assignments), process
	// substitutions, and the commands that wrappers (env, timeout, nice,
	// nohup, command, builtin, exec, xargs, sudo …) and find -exec run. A
	// wrapper itself is not listed: its command is, with the wrapper's
	// environment assignments in Env. A call of a function the line
	// declared is not listed either: its body is.
	Simple []Simple
	// Writes lists every file the line may write: redirection targets
	// (not /dev/null or fd duplications) and the output files of the
	// tools in writes.go. A relative path is joined to every directory a
	// cd before it may have moved to. A write whose target the parse
	// cannot place is listed with Unknown set.
	Writes []Write
	// Reads lists what the line may read besides its input: every
	// literal word of its commands that names a file (relative ones
	// joined to every directory a cd may have moved to, and the
	// directories cd goes to), the files of input redirections, sed's r
	// files, and the directories globs start from. A word whose file
	// cannot be told is listed with Unknown set: a read-only command's
	// expansion that is not a plain relative path, a search that follows
	// links.
	Reads []Read
	// Opaque gives the reasons the line cannot be judged (eval, sh -c, a
	// program named by an expansion, PATH=…, …). A line with any reason
	// here is never allowed by the read-only list or by a rule.
	Opaque []string

	// input is set when a redirection feeds a command (<, <<, <<<, <&,
	// <>): what it reads is then not only its operands.
	input bool
	// hidden lists the simple commands the line runs through strings
	// (sh -c 'rm x', eval, trap, env -S, su -c), parsed where literal, at
	// any depth: reject rules are matched against them too.
	hidden []Simple
	// unknownRuns gives the reasons the line may run a program the parse
	// cannot name ($X args, eval "$S", sh reading its input, a wrapper
	// whose command is known only when it runs): with reject rules, such
	// a line asks under every preset.
	unknownRuns []string
}

// Simple is one simple command: a program with its arguments.
type Simple struct {
	// Env holds the NAME=value assignments that prefix the command (or
	// that env gives it), the value as written when it is not literal.
	Env []string
	// Words holds the program and its arguments: a literal word after
	// quote removal, any other word as written in the source. The
	// command xargs runs ends in a word "{input}" (not literal) standing
	// for the arguments xargs reads.
	Words []string
	// Literal tells, per word, whether it is exactly the text in Words
	// when bash runs it: false when the word has a parameter, command or
	// arithmetic expansion, a glob, a brace expansion or a leading tilde.
	Literal []bool

	// optionFree tells, per word, that whatever the word expands to
	// cannot start with "-" nor split into more words than a glob would:
	// it can never be read as an option. Words made by hand (nil here)
	// count as option-free only when literal and not starting with "-".
	optionFree []bool
	// pipe tells, per word, that the word is one process substitution
	// (<(…) or >(…)): a pipe to a command the parse judges on its own,
	// not a file.
	pipe []bool
	// paths tells, per word that is not literal, what it may name as a
	// path. Words made by hand (nil here) name what cannot be told.
	paths []wordPaths
}

// Write is one file a command may write.
type Write struct {
	// Path is the file as written, relative to the command's directory
	// unless absolute; after a cd it starts with the cd's directory.
	Path string
	// By names what writes it: "redirect", "tee", "sort -o", "cp" ….
	By string
	// Unknown, when set, says why where the write lands cannot be told
	// (an expansion or glob in the target, a directory the parse cannot
	// follow, a tool reading its options from a file); Path is then as
	// written, or "" when no single word is the target.
	Unknown string
}

// Parse parses a bash command line. A syntax error is returned as an
// error (the policy then asks). Comments are dropped.
func Parse(src string) (*Command, error) {
	return parseAt(src, 0)
}

// parseAt parses src found depth strings deep (sh -c 'sh -c …').
func parseAt(src string, depth int) (*Command, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, fmt.Errorf("parse bash command: %w", err)
	}
	p := newParser(src)
	p.depth = depth
	if strings.ContainsAny(src, "\r\x00") {
		// The parser drops a carriage return before a newline where bash
		// keeps it in the word: the two would not agree on the words.
		p.opaque("the command holds a carriage return or NUL byte, which bash and the parser read differently")
	}
	p.stmts(f.Stmts)
	p.finish()
	return p.cmd, nil
}

// Program is the name the read-only list and the prefixes know the
// program by: the base name of a path into a system directory (/bin/ls
// is ls), and the first word as written otherwise, so "./x" and "x"
// stay distinct. It is "" when the program word is not literal.
func (s Simple) Program() string {
	if len(s.Words) == 0 || !s.literal(0) {
		return ""
	}
	name := s.Words[0]
	if dir, base := path.Split(name); dir != "" && systemDir(path.Clean(dir)) {
		return base
	}
	return name
}

// systemDir reports whether dir holds the system's own programs.
func systemDir(dir string) bool {
	switch dir {
	case "/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin", "/opt/homebrew/bin":
		return true
	}
	return false
}

// literal reports whether word i is literal.
func (s Simple) literal(i int) bool {
	return i < len(s.Literal) && s.Literal[i]
}

// mayBeOption reports whether word i could be read as an option: a
// literal starting with "-", or an expansion that could become one.
func (s Simple) mayBeOption(i int) bool {
	if s.literal(i) {
		return strings.HasPrefix(s.Words[i], "-")
	}
	return i >= len(s.optionFree) || !s.optionFree[i]
}

// isPipe reports whether word i is a process substitution.
func (s Simple) isPipe(i int) bool {
	return i < len(s.pipe) && s.pipe[i]
}

// sub returns the simple command made of words from i on, with s's
// environment: the command a wrapper runs.
func (s Simple) sub(i int) Simple {
	t := Simple{
		Env:     s.Env,
		Words:   s.Words[i:],
		Literal: s.Literal[i:],
	}
	if len(s.optionFree) == len(s.Words) {
		t.optionFree = s.optionFree[i:]
	}
	if len(s.pipe) == len(s.Words) {
		t.pipe = s.pipe[i:]
	}
	if len(s.paths) == len(s.Words) {
		t.paths = s.paths[i:]
	}
	return t
}

// pathsOf returns what word i may name as a path (for a word that is not
// literal).
func (s Simple) pathsOf(i int) wordPaths {
	if i < len(s.paths) {
		return s.paths[i]
	}
	return wordPaths{unknown: s.Words[i] + " is known only when it runs"}
}

// String is the command as a reader would type it: its words joined by
// spaces, environment first.
func (s Simple) String() string {
	return strings.Join(append(append([]string(nil), s.Env...), s.Words...), " ")
}
