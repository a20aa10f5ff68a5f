package command

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxWrappers bounds how deep wrappers (env, timeout, xargs …) are
// followed.
const maxWrappers = 8

// call walks a simple command: what its assignments and words expand,
// then what it runs.
func (p *parser) call(c *syntax.CallExpr) {
	var env []string
	for _, a := range c.Assigns {
		text := p.assign(a)
		if len(c.Args) > 0 {
			env = append(env, text) // the command's environment only
		} else {
			p.assignPlain(a)
		}
	}
	if len(c.Args) == 0 {
		return
	}
	s := Simple{
		Env:        env,
		Words:      make([]string, len(c.Args)),
		Literal:    make([]bool, len(c.Args)),
		optionFree: make([]bool, len(c.Args)),
		pipe:       make([]bool, len(c.Args)),
		paths:      make([]wordPaths, len(c.Args)),
	}
	for i, arg := range c.Args {
		p.nested(arg)
		w := p.word(arg, argWord)
		s.Words[i], s.Literal[i], s.optionFree[i] = w.text, w.literal, w.optionFree
		s.pipe[i] = isProcSubst(arg)
		if !w.literal && !s.pipe[i] {
			s.paths[i].patterns, s.paths[i].unknown = p.pathPatterns(arg)
		}
	}
	p.run(s, 0)
}

// assign walks one assignment and returns it as NAME=value.
func (p *parser) assign(a *syntax.Assign) string {
	name := a.Name.Value
	if a.Index != nil {
		p.arithm(a.Index)
	}
	value := word{literal: true}
	switch {
	case a.Array != nil:
		for _, el := range a.Array.Elems {
			if el.Index != nil {
				p.arithm(el.Index)
			}
			if el.Value != nil {
				p.nested(el.Value)
			}
		}
		value = word{text: p.source(a.Array)}
		p.taint(name)
	case a.Value != nil:
		p.nested(a.Value)
		value = p.word(a.Value, assignValue)
		if !value.literal || !isArithSafeValue(value.text) {
			p.taint(name)
		}
	}
	p.checkAssign(name, value.text, value.literal)
	op := "="
	if a.Append {
		op = "+="
	}
	return name + op + value.text
}

// declare walks declare, local, export, readonly and typeset.
func (p *parser) declare(d *syntax.DeclClause) {
	variant := d.Variant.Value
	if variant == "nameref" {
		p.opaque("nameref makes one variable stand for another, which cannot be judged")
	}
	for _, a := range d.Args {
		switch {
		case a.Naked && a.Name == nil:
			p.nested(a.Value)
			w := p.word(a.Value, argWord)
			switch {
			case !w.literal:
				p.opaque("%s of a name known only when it runs cannot be judged", variant)
			case strings.HasPrefix(w.text, "-") || strings.HasPrefix(w.text, "+"):
				// -n makes a name reference (export -n only un-exports);
				// -i evaluates every later value as arithmetic.
				if strings.Contains(w.text, "i") || (variant != "export" && strings.Contains(w.text, "n")) {
					p.opaque("%s %s cannot be judged", variant, w.text)
				}
			case !validName(w.text):
				p.opaque("%s %s cannot be judged", variant, w.text)
			}
		case a.Naked:
			// Only declares (or exports) a name.
		default:
			p.assign(a)
			p.assignPlain(a)
		}
	}
}

// assignPlain notes what a shell variable the line assigns stands for as
// a path (see setPlain).
func (p *parser) assignPlain(a *syntax.Assign) {
	name := a.Name.Value
	if a.Array != nil || a.Index != nil || a.Append || a.Value == nil {
		p.forget(name)
		return
	}
	if w := p.word(a.Value, assignValue); w.literal {
		p.setPlain(name, []string{globbing(w.text)})
		return
	}
	p.forget(name)
}

// run judges what a simple command runs: it unwraps wrappers, records the
// command, and notes what it writes. depth counts the wrappers around it.
func (p *parser) run(s Simple, depth int) {
	if depth > maxWrappers {
		p.unknownRun("wrappers nested too deep to follow")
		return
	}
	if !s.literal(0) {
		p.unknownRun("the program %s is known only when it runs", s.Words[0])
		return
	}
	name := s.Program()
	if inner, ok := p.unwrap(s, name); ok {
		if inner != nil {
			p.run(*inner, depth+1)
		}
		return
	}
	if reason := opaqueProgram(s, name); reason != "" {
		p.opaque("%s", reason)
		p.hidden(s, name)
	}
	if depth == 0 && !strings.Contains(s.Words[0], "/") && slices.Contains(p.funcs, s.Words[0]) {
		// A call of a function declared earlier runs its body, judged
		// where it was declared.
		return
	}
	p.cmd.Simple = append(p.cmd.Simple, s)
	p.operandReads(s, name)
	p.toolReads(s, name)
	switch name {
	case "cd", "pushd", "popd":
		p.cd(s, name)
	case "find":
		p.findExec(s, depth)
	}
	p.taintFrom(s, name)
	p.toolWrites(s, name)
	if p.linked == "" {
		p.linked = makesLinks(s, name)
	}
	if name == "shopt" && slices.Contains(s.Words, "globstar") {
		p.globstar = true
	}
}

// cd follows a change of directory.
func (p *parser) cd(s Simple, name string) {
	p.cds++
	if name == "popd" {
		p.loseDir()
		return
	}
	opts := scan(s, 1, flagSpec{posix: true})
	ops := operands(opts)
	if hasUnknown(opts) || len(ops) != 1 {
		p.loseDir() // cd alone goes home
		return
	}
	i := ops[0].index
	target := s.Words[i]
	if !s.literal(i) || target == "" || target == "-" || strings.HasPrefix(target, "+") {
		p.loseDir()
		return
	}
	if p.lost && !path.IsAbs(target) {
		p.unknownRead(name, "%s %s goes to a directory the parse cannot follow (after cd, or in a function)", name, target)
	}
	for _, d := range slices.Clone(p.dirs) {
		// Kept as written, the ".." in it is taken after the links before
		// it (cd -P, and what the kernel opens); cleaned, it is where a
		// logical cd (bash's default) goes. Both are followed.
		for _, next := range []string{joinPath(d, target), logicalPath(d, target)} {
			if !p.lost {
				p.addRead(Read{Path: next, By: name})
			}
			if !slices.Contains(p.dirs, next) {
				p.dirs = append(p.dirs, next)
			}
		}
	}
	if len(p.dirs) > maxDirs {
		p.loseDir()
	}
}

// joinPath is target taken from dir, kept as written (not cleaned: ".."
// after a symbolic link leaves where the link points, not where the text
// suggests, so the caller resolves it).
func joinPath(dir, target string) string {
	if dir == "" || path.IsAbs(target) {
		return target
	}
	return strings.TrimSuffix(dir, "/") + "/" + target
}

// makesLinks returns the command, when s makes symbolic or hard links
// (ln, cp -s, cp -l), or "": after it, paths may lead elsewhere than the
// disk shows now.
func makesLinks(s Simple, name string) string {
	switch name {
	case "ln":
		return "ln"
	case "cp":
		for _, o := range scan(s, 1, flagSpec{short: "St", long: []string{"target-directory", "suffix"}}) {
			if o.is("-s", "--symbolic-link") || o.is("-l", "--link") {
				return "cp " + o.name
			}
		}
	}
	return ""
}

// logicalPath is target taken from dir the way bash's cd without -P takes
// it: a ".." removes the name before it as text.
func logicalPath(dir, target string) string {
	joined := joinPath(dir, target)
	if joined == "" {
		return ""
	}
	return path.Clean(joined)
}

// write records that by writes file, as seen from every directory the
// line may be in.
func (p *parser) write(file, by string) {
	if file == "" || harmlessTarget(file) {
		return
	}
	paths, why := p.placed(file)
	if why != "" {
		p.unknownWrite(file, by, "%s writes %s %s", by, file, why)
		return
	}
	for _, at := range paths {
		p.addWrite(Write{Path: at, By: by})
	}
}

// addWrite records one write, once.
func (p *parser) addWrite(w Write) {
	if !slices.Contains(p.cmd.Writes, w) {
		p.cmd.Writes = append(p.cmd.Writes, w)
	}
}

// unknownWrite records a write by by whose target cannot be placed.
func (p *parser) unknownWrite(file, by, format string, args ...any) {
	p.addWrite(Write{Path: file, By: by, Unknown: fmt.Sprintf(format, args...)})
}

// harmlessTarget reports whether writing file changes no file: the null
// device, the terminal, or one of the command's own descriptors.
func harmlessTarget(file string) bool {
	switch file {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
		return true
	}
	for _, prefix := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if rest, ok := strings.CutPrefix(file, prefix); ok && isNumber(rest) {
			return true
		}
	}
	return false
}

// taintFrom notes the variables a builtin sets from input (see
// arithmetic), and refuses the names that would evaluate a subscript.
func (p *parser) taintFrom(s Simple, name string) {
	var names []option // operands, or options whose value is the name
	switch name {
	case "read":
		for _, o := range scan(s, 1, flagSpec{short: "adinNptu"}) {
			if (o.name == "-a" && o.hasValue) || o.name == "" {
				names = append(names, o)
			}
		}
		p.taint("REPLY")
	case "mapfile", "readarray":
		if ops := operands(scan(s, 1, flagSpec{short: "dnOsuCc"})); len(ops) > 0 {
			names = append(names, ops[len(ops)-1])
		}
		p.taint("MAPFILE")
	case "printf":
		for _, o := range scan(s, 1, flagSpec{short: "v", posix: true}) {
			if o.name == "-v" && o.hasValue {
				names = append(names, o)
			}
		}
	case "getopts":
		if ops := operands(scan(s, 1, flagSpec{posix: true})); len(ops) >= 2 {
			names = append(names, ops[1])
		}
	case "wait":
		for _, o := range scan(s, 1, flagSpec{short: "p"}) {
			if o.name == "-p" && o.hasValue {
				names = append(names, o)
			}
		}
	}
	for _, o := range names {
		text, literal := s.Words[o.index], s.literal(o.index)
		if o.name != "" {
			text = o.value
			literal = literal && (o.valueIndex < 0 || s.literal(o.valueIndex))
		}
		if !literal || !validName(text) {
			p.opaque("%s sets a variable named %s, whose subscript can run commands", name, text)
			continue
		}
		p.checkName(text)
		p.taint(text)
	}
}
