package command

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Read is one file or directory a command may read, checked like a read
// tool's path: one outside the workspace asks.
type Read struct {
	// Path is what is checked: the file as written (relative to the
	// command's directory unless absolute; after a cd it starts with the
	// cd's directory), or the directory a glob starts from ("src" for
	// src/*.go).
	Path string
	// Word is the word as written when it differs from Path (a glob, a
	// variable, a brace expansion), for the reason shown.
	Word string
	// Pattern, for a glob, is the whole pattern placed like Path, its
	// globs written as "*" (so it matches at least what bash's does):
	// with Env.Glob, every file it matches is checked too, since a match
	// may be a link leading outside.
	Pattern string
	// By names what reads it: "cat", "a redirection", "sed r" ….
	By string
	// Unknown, when set, says why what the word names cannot be told (a
	// variable set outside the line, a command substitution, a glob that
	// can match "..", a link-following search); Path is then "".
	Unknown string
}

// globChar marks, in a path pattern, what globs: *, ?, or a whole
// bracket expression ([abc], [!.]).
const globChar = '\x01'

// maxPatterns bounds the paths one word is followed through (brace
// alternatives times the values of the variables in it); past it, what
// the word names is unknown.
const maxPatterns = 64

// pathPatterns returns the paths word w may name, as patterns in which
// globChar marks a globbing character, or why they cannot be told: an
// expansion the line did not set to a known value, a tilde, a command
// substitution. Variables the line set to known paths (see plainValues)
// stand for each of their values.
func (p *parser) pathPatterns(w *syntax.Word) ([]string, string) {
	if hasBraceExpansion(w) {
		clone := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
		syntax.SplitBraces(clone)
		var out []string
		for alt, err := range expand.BracesSeq(nil, clone) {
			if err != nil || len(out) >= maxPatterns {
				return nil, "a brace expansion too large to follow"
			}
			pats, unknown := p.pathPatterns(alt)
			if unknown != "" {
				return nil, unknown
			}
			out = append(out, pats...)
		}
		return out, ""
	}
	pats := []string{""}
	for i, part := range w.Parts {
		var add []string
		switch x := part.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(x.Value, "~") {
				return nil, "it starts from a home directory"
			}
			add = []string{markGlobs(x.Value)}
		case *syntax.SglQuoted:
			if x.Dollar {
				return nil, p.source(w) + " is known only when it runs"
			}
			add = []string{x.Value}
		case *syntax.DblQuoted:
			if x.Dollar {
				return nil, p.source(w) + " is known only when it runs"
			}
			inner := []string{""}
			for _, q := range x.Parts {
				vals, unknown := p.partValues(q, true)
				if unknown != "" {
					return nil, unknown
				}
				if inner = crossJoin(inner, vals); inner == nil {
					return nil, "it stands for too many paths to follow"
				}
			}
			add = inner
		default:
			vals, unknown := p.partValues(part, false)
			if unknown != "" {
				return nil, unknown
			}
			add = vals
		}
		if pats = crossJoin(pats, add); pats == nil {
			return nil, "it stands for too many paths to follow"
		}
	}
	return pats, ""
}

// partValues returns what an expansion inside a word may stand for: the
// values of a variable the line set to known paths, a number for
// arithmetic, a quoted literal.
func (p *parser) partValues(part syntax.WordPart, quoted bool) ([]string, string) {
	switch x := part.(type) {
	case *syntax.Lit:
		if quoted {
			return []string{unescapeDouble(x.Value)}, ""
		}
		return []string{markGlobs(x.Value)}, ""
	case *syntax.ArithmExp:
		return []string{"0"}, ""
	case *syntax.ParamExp:
		if simpleParam(x) {
			if vals, ok := p.plainVars[x.Param.Value]; ok {
				return vals, ""
			}
		}
		return nil, p.source(x) + " is known only when it runs"
	}
	return nil, p.source(part) + " is known only when it runs"
}

// simpleParam reports whether x is $name or ${name}, nothing more.
func simpleParam(x *syntax.ParamExp) bool {
	return x.Param != nil && !x.Excl && !x.Length && !x.Width && x.Index == nil && x.Slice == nil &&
		x.Repl == nil && x.Names == 0 && x.Exp == nil && x.NestedParam == nil
}

// globbing marks what globs in v with globChar, as it globs where v is
// expanded unquoted.
func globbing(v string) string {
	return markGlobs(strings.ReplaceAll(v, `\`, `\\`))
}

// markGlobs removes an unquoted literal's backslashes and marks what
// globs with globChar.
func markGlobs(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		case c == '[':
			if end := bracketEnd(v, i); end > 0 {
				i = end - 1
			}
			b.WriteByte(globChar)
		case c == '*' || c == '?':
			b.WriteByte(globChar)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// crossJoin returns every a+b, or nil past maxPatterns.
func crossJoin(as, bs []string) []string {
	if len(as)*len(bs) > maxPatterns {
		return nil
	}
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out
}

// staticPart splits a path pattern into the directories before its first
// globbing name, which name one place, and the names from there on. A
// pattern without a glob is all static.
func staticPart(pat string) (static string, rest []string) {
	names := strings.Split(pat, "/")
	for i, name := range names {
		if strings.ContainsRune(name, globChar) {
			static = strings.Join(names[:i], "/")
			if static == "" && strings.HasPrefix(pat, "/") {
				static = "/"
			}
			return static, names[i:]
		}
	}
	return pat, nil
}

// climbs returns why the globbing names of a pattern may lead out of the
// directory they start in: a ".." name, or a glob starting with "." that
// can match "..".
func climbs(rest []string) string {
	for _, name := range rest {
		switch {
		case name == "..":
			return `it climbs with ".." after a glob`
		case matchesDotDot(name):
			return `a glob starting with "." can match ".."`
		}
	}
	return ""
}

// plainValue reports whether the literal or pattern v, a variable's
// value, can stand in a path without leading anywhere but below where it
// is used: not empty, not absolute, no "." or ".." name, no glob starting
// with ".", no leading "-" or "~".
func plainValue(v string) bool {
	if v == "" || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "-") {
		return false
	}
	for _, name := range strings.Split(v, "/") {
		if name == "." || name == ".." || matchesDotDot(name) {
			return false
		}
	}
	return true
}

// matchesDotDot reports whether a glob name can match "..": it starts
// with "." (a leading dot is never matched by a glob) and the rest is
// globs and at most one more ".", as in .*, .?, .[.] or .*.
func matchesDotDot(name string) bool {
	rest, ok := strings.CutPrefix(name, ".")
	if !ok || !strings.ContainsRune(rest, globChar) {
		return false
	}
	return strings.Trim(rest, string(globChar)+".") == "" && strings.Count(rest, ".") <= 1
}

// setPlain records the values a variable the line sets may hold, when
// each is a plain relative path (see plainValue); any other value makes
// what it stands for unknown.
func (p *parser) setPlain(name string, values []string) {
	if p.plainVars == nil {
		p.plainVars = map[string][]string{}
	}
	for _, v := range values {
		if !plainValue(v) {
			delete(p.plainVars, name)
			return
		}
	}
	p.plainVars[name] = values
}

// forget notes that a variable now holds a value the parse does not see.
func (p *parser) forget(name string) {
	delete(p.plainVars, name)
}

// wordPaths is what one argument word may name as a path.
type wordPaths struct {
	patterns []string
	unknown  string // why the word's paths cannot be told
}

// readPattern records a read of each path pattern a word stands for:
// the directory its globs start from, or the file itself.
func (p *parser) readPattern(wp wordPaths, word, by string) {
	if wp.unknown != "" {
		p.unknownRead(by, "%s reads %s, which may lie outside the workspace: %s", by, word, wp.unknown)
		return
	}
	for _, pat := range wp.patterns {
		static, rest := staticPart(pat)
		if why := climbs(rest); why != "" {
			p.unknownRead(by, "%s reads %s, which may lie outside the workspace: %s", by, word, why)
			return
		}
		shown := ""
		if static != word {
			shown = word
		}
		if rest != nil {
			p.readGlob(pat, shown, by)
			continue
		}
		p.read(static, shown, by)
	}
}

// readGlob records that by reads what the glob pattern matches, as seen
// from every directory the line may be in: the directory its globs start
// from, and the pattern for Env.Glob. A glob of names in a directory the
// parse cannot follow is left to that directory's own check.
func (p *parser) readGlob(pattern, word, by string) {
	if p.globstar && strings.Contains(pattern, string([]byte{globChar, globChar})) {
		p.unknownRead(by, "%s reads %s: with globstar, ** matches files at any depth, which are not checked one by one", by, word)
		return
	}
	paths, why := p.placed(pattern)
	if static, _ := staticPart(pattern); why != "" && static == "" && p.linked == "" {
		return // names in whatever directory the command runs in (find -execdir's {})
	}
	if why != "" {
		p.unknownRead(by, "%s reads %s %s", by, word, why)
		return
	}
	for _, at := range paths {
		static, _ := staticPart(at)
		if static == "" {
			static = "."
		}
		p.addRead(Read{Path: static, Word: word, By: by, Pattern: strings.ReplaceAll(at, string(globChar), "*")})
	}
}

// read records that by reads file, as seen from every directory the line
// may be in.
func (p *parser) read(file, word, by string) {
	paths, why := p.placed(file)
	if why != "" {
		p.unknownRead(by, "%s reads %s %s", by, file, why)
		return
	}
	for _, at := range paths {
		p.addRead(Read{Path: at, Word: word, By: by})
	}
}

// unknownRead records a read by by whose file cannot be told.
func (p *parser) unknownRead(by, format string, args ...any) {
	p.addRead(Read{By: by, Unknown: fmt.Sprintf(format, args...)})
}

// addRead records one read, once.
func (p *parser) addRead(r Read) {
	if !slices.Contains(p.cmd.Reads, r) {
		p.cmd.Reads = append(p.cmd.Reads, r)
	}
}

// placed returns file as seen from each directory the line may be in,
// or why where it leads cannot be told: a relative file once the
// directory is lost, any file once the line made links (what the disk
// shows now is not what the command will meet).
func (p *parser) placed(file string) (paths []string, why string) {
	switch {
	case p.linked != "":
		return nil, "after " + p.linked + " made links, which may lead outside the workspace"
	case path.IsAbs(file):
		return []string{file}, ""
	case p.lost:
		return nil, "in a directory the parse cannot follow (after cd, or in a function)"
	}
	for _, d := range p.dirs {
		paths = append(paths, joinPath(d, file))
	}
	return paths, ""
}

// redirectReads records what a redirection reads (<, <>, <&file), and
// refuses bash's network paths (/dev/tcp/host/port, /dev/udp/…), which
// it opens as a connection whatever the redirection's direction.
func (p *parser) redirectReads(r *syntax.Redirect) {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return // data, not a file
	}
	w := p.word(r.Word, argWord)
	pats := []string{w.text}
	unknown := ""
	if !w.literal {
		pats, unknown = p.pathPatterns(r.Word)
	}
	for _, pat := range pats {
		if networkPath(pat) {
			p.opaque("the redirection %s opens a network connection", w.text)
			return
		}
	}
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut:
	case syntax.DplIn:
		if w.literal && isDescriptor(w.text) {
			return
		}
	default:
		return
	}
	if w.literal {
		if !harmlessSource(w.text) {
			p.read(w.text, "", "a redirection")
		}
		return
	}
	p.readPattern(wordPaths{patterns: pats, unknown: unknown}, w.text, "a redirection")
}

// networkPath reports whether bash opens path as a connection in a
// redirection.
func networkPath(file string) bool {
	for _, prefix := range []string{"/dev/tcp/", "/dev/udp/"} {
		if strings.HasPrefix(path.Clean("/"+file), prefix) || strings.HasPrefix(file, prefix) {
			return true
		}
	}
	return false
}

// harmlessSource reports whether reading file reads no file: the null
// device, the terminal, or one of the command's own descriptors.
func harmlessSource(file string) bool {
	switch file {
	case "/dev/stdin", "/dev/zero", "/dev/urandom", "/dev/random":
		return true
	}
	return harmlessTarget(file)
}

// toolReads records the files a known tool reads besides its operands:
// sed's r and R files.
func (p *parser) toolReads(s Simple, name string) {
	if name != "sed" {
		return
	}
	for _, bsd := range sedDialects() {
		l := parseSed(s, bsd)
		if l.err != nil {
			continue // not read-only: judged as such
		}
		for _, script := range l.scripts {
			reads, _ := scanSedScript(script)
			for _, file := range reads {
				if !harmlessSource(file) {
					p.read(file, "", "sed r")
				}
			}
		}
	}
}

// operandReads records what a simple command reads through its words:
// every literal word that is not an option (and the value of an option
// written --name=value or -xVALUE with a path in it), and, for a
// read-only command, every word that is not literal, unless the program
// reads no files (echo, test …). A command a rule allows runs what it
// likes anyway; its literal words are still checked.
// A program that follows links while it walks a tree, or reads file
// names from a file, reads what cannot be told.
func (p *parser) operandReads(s Simple, name string) {
	switch name {
	case "cd", "pushd", "popd":
		return // cd checks where it goes
	}
	if opt := followsLinks(s, name); opt != "" {
		p.unknownRead(name, "%s %s follows symbolic links, which may lead outside the workspace", name, opt)
	}
	if opt, ok := anyWordIs(s, "--files0-from"); ok {
		p.unknownRead(name, "%s %s reads file names from a file, which may lie outside the workspace", name, opt)
	}
	readOnly, _ := ReadOnly(s)
	readsFiles := !readsNoFiles(name)
	if readsFiles && p.away {
		p.unknownRead(name, "%s reads in a directory the parse cannot follow (after cd)", name)
	}
	patterns := patternWords(s, name)
	for i := 1; i < len(s.Words); i++ {
		if s.isPipe(i) || slices.Contains(patterns, i) {
			continue
		}
		w := s.Words[i]
		if s.literal(i) {
			if file := optionPath(w); file != "" {
				p.read(file, "", name)
			}
			continue
		}
		if readsFiles && readOnly {
			p.readPattern(s.pathsOf(i), w, name)
		}
	}
}

// patternWords returns the indexes of the words that are a search
// pattern or a script, not a file, for the programs whose first operand
// is one (sed, awk, grep, rg) unless an option gives it: the values of
// those options, or the first operand. Only options certain to take a
// value are listed, so a file is never taken for a pattern.
func patternWords(s Simple, name string) []int {
	var spec flagSpec
	var given []string // options whose value is the pattern or script
	switch name {
	case "sed":
		spec = flagSpec{short: "efl", attached: "i", long: []string{"expression", "file", "line-length"}}
		given = []string{"-e", "--expression", "-f", "--file"}
	case "awk", "gawk", "mawk", "nawk":
		spec = flagSpec{short: "Fvef", long: []string{"field-separator", "assign", "source", "file"}}
		given = []string{"-e", "--source", "-f", "--file"}
	case "grep", "egrep", "fgrep":
		spec = flagSpec{short: "efABCmdD", long: []string{"regexp", "file", "after-context", "before-context", "context",
			"max-count", "directories", "devices", "include", "exclude", "exclude-dir", "exclude-from", "label", "binary-files"}}
		given = []string{"-e", "--regexp", "-f", "--file"}
	case "rg":
		spec = flagSpec{short: "efABCdEgjMmrtT", long: []string{"regexp", "file", "after-context", "before-context", "context",
			"max-depth", "encoding", "glob", "iglob", "threads", "max-columns", "max-count", "replace", "type", "type-not"}}
		given = []string{"-e", "--regexp", "-f", "--file"}
	default:
		return nil
	}
	opts := scan(s, 1, spec)
	var out []int
	for _, o := range opts {
		for i := 0; i+1 < len(given); i += 2 {
			if o.is(given[i], given[i+1]) {
				if given[i] == "-e" && o.valueIndex >= 0 {
					out = append(out, o.valueIndex) // a pattern; -f's value is a file
				}
				if given[i] == "-e" || given[i] == "-f" {
					out = append(out, -1) // the pattern is given: no operand is one
				}
			}
		}
	}
	if !slices.Contains(out, -1) {
		if ops := operands(opts); len(ops) > 0 {
			out = append(out, ops[0].index)
		}
	}
	return out
}

// optionPath returns the path a literal word may name: the word itself
// when it is no option, the value of --name=value, or the part of a short
// option cluster from its first "/", "." or "~" (-f/etc/x).
func optionPath(w string) string {
	if !strings.HasPrefix(w, "-") || w == "-" {
		return w
	}
	if _, value, ok := strings.Cut(w, "="); ok {
		return value
	}
	if !strings.HasPrefix(w, "--") {
		if i := strings.IndexAny(w[1:], "/.~"); i > 0 {
			return w[1+i:]
		}
	}
	return ""
}

// readsNoFiles reports whether the program's words are never files it
// reads: an expansion there names no file.
func readsNoFiles(name string) bool {
	switch name {
	case "echo", "printf", "true", "false", ":", "test", "[", "sleep", "seq", "expr", "factor", "numfmt", "cal",
		"yes", "which", "type", "whoami", "id", "groups", "users", "logname", "uname", "arch", "nproc",
		"getconf", "locale", "tty", "ps", "pgrep", "uptime", "free", "who", "w", "printenv", "basename",
		"dirname", "read", "exit", "return", "wait", "break", "continue", "shift", "times", "jobs", "hash",
		"set", "shopt", "getopts", "mapfile", "readarray", "dirs", "hostname", "tee", "command", "env":
		return true
	}
	return false
}

// followsLinks returns the option with which a program follows the
// symbolic links it meets while walking a tree (grep -R, rg -L, find -L,
// cp -L, ls -L …), or "".
func followsLinks(s Simple, name string) string {
	var short, long []string
	switch name {
	case "grep", "egrep", "fgrep":
		short, long = []string{"R"}, []string{"--dereference-recursive"}
	case "rg", "fd", "fdfind":
		short, long = []string{"L"}, []string{"--follow"}
	case "ag":
		short, long = []string{"f"}, []string{"--follow"}
	case "ls", "du", "cp":
		short, long = []string{"L"}, []string{"--dereference"}
	case "tree":
		short = []string{"l"}
	case "tar":
		short, long = []string{"h"}, []string{"--dereference"}
		if len(s.Words) > 1 && s.literal(1) && !strings.HasPrefix(s.Words[1], "-") && strings.Contains(s.Words[1], "h") {
			return s.Words[1]
		}
	case "rsync":
		short, long = []string{"L", "k"}, []string{"--copy-links", "--copy-unsafe-links", "--copy-dirlinks"}
	case "diff":
		if _, ok := anyWordIs(s, "--no-dereference"); ok {
			return ""
		}
		short, long = []string{"r"}, []string{"--recursive"}
	case "find":
		for i := 1; i < len(s.Words); i++ {
			if s.literal(i) && (s.Words[i] == "-L" || s.Words[i] == "-follow") {
				return s.Words[i]
			}
		}
		return ""
	default:
		return ""
	}
	if w, ok := anyWordIs(s, long...); ok {
		return w
	}
	for i := 1; i < len(s.Words); i++ {
		w := s.Words[i]
		if !s.literal(i) || w == "--" {
			if w == "--" {
				return ""
			}
			continue
		}
		if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") {
			for _, c := range short {
				if strings.Contains(w[1:], c) {
					return w
				}
			}
		}
	}
	return ""
}
