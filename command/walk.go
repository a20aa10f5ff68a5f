package command

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxDirs bounds the directories a line's cds are followed through;
// past it, where relative paths lead is unknown.
const maxDirs = 16

// parser walks one parsed line into a Command.
type parser struct {
	src string
	cmd *Command

	// dirs are the directories the line may be in at this point,
	// relative to where it started ("" is that directory). A cd adds to
	// them and never removes (it may fail), so every relative write is
	// checked against each.
	dirs []string
	// lost is set once a cd went somewhere the parse cannot follow
	// (cd with no argument, cd -, cd $X, popd, a cd in a function).
	lost bool
	// funcs are the functions declared so far: calling one runs its
	// body, which the walk has judged where it was declared.
	funcs []string
	// away is set once a cd went somewhere unknown (cd with no argument,
	// cd -, cd $X, popd): even a command with no operand (ls, git
	// status) may then read outside the workspace.
	away bool
	// linked names the command that made links earlier in the line (ln,
	// cp -s): where later paths lead cannot be told from the disk.
	linked string
	// globstar is set once the line may have turned on shopt globstar,
	// with which ** matches at any depth.
	globstar bool
	// cds counts the cd, pushd and popd commands seen.
	cds int
	// plainVars are the variables the line set to values that are plain
	// relative paths (see plainValue), with those values: $f in
	// "for f in *.go; do wc -l "$f"; done" stands for *.go.
	plainVars map[string][]string

	arith arithmetic
	seen  map[string]bool // opaque reasons already given
	// depth counts the strings this line is found in (see hidden).
	depth int
}

// scope is the part of the parser's state a subshell restores.
type scope struct {
	dirs      []string
	lost      bool
	away      bool
	funcs     int
	plainVars map[string][]string
}

func newParser(src string) *parser {
	return &parser{src: src, cmd: &Command{}, dirs: []string{""}}
}

// enter saves the state a subshell, pipeline element or substitution
// must not leak to the commands after it.
func (p *parser) enter() scope {
	return scope{dirs: slices.Clone(p.dirs), lost: p.lost, away: p.away, funcs: len(p.funcs), plainVars: maps.Clone(p.plainVars)}
}

// leave restores the state enter saved.
func (p *parser) leave(s scope) {
	p.dirs, p.lost, p.away, p.funcs, p.plainVars = s.dirs, s.lost, s.away, p.funcs[:s.funcs], s.plainVars
}

// taint notes that the line may set name from input: arithmetic on it
// is unsafe, and what it names as a path is unknown.
func (p *parser) taint(name string) {
	p.arith.taint(name)
	p.forget(name)
}

// loseDir notes that a cd went where the parse cannot follow.
func (p *parser) loseDir() {
	p.lost, p.away = true, true
}

// opaque records a reason the line cannot be judged, once.
func (p *parser) opaque(format string, args ...any) {
	reason := fmt.Sprintf(format, args...)
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	if p.seen[reason] {
		return
	}
	p.seen[reason] = true
	p.cmd.Opaque = append(p.cmd.Opaque, reason)
}

// finish adds what can only be judged once the whole line is read.
func (p *parser) finish() {
	for _, name := range p.arith.assigned {
		p.checkName(name)
	}
	if reason, ok := p.arith.verdict(); !ok {
		p.opaque("%s", reason)
	}
}

// stmts walks a statement list in order.
func (p *parser) stmts(list []*syntax.Stmt) {
	for _, s := range list {
		p.stmt(s)
	}
}

// scoped walks list as a subshell: what it does to the directory and the
// functions stays inside.
func (p *parser) scoped(list []*syntax.Stmt) {
	s := p.enter()
	p.stmts(list)
	p.leave(s)
}

// stmt walks one statement: its redirections are opened before its
// command runs, so they are taken first.
func (p *parser) stmt(s *syntax.Stmt) {
	for _, r := range s.Redirs {
		p.redirect(r)
	}
	if s.Cmd != nil {
		p.command(s.Cmd)
	}
}

// command walks one command of any kind.
func (p *parser) command(c syntax.Command) {
	switch x := c.(type) {
	case *syntax.CallExpr:
		p.call(x)
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			// Each element of a pipeline runs in a subshell.
			p.scoped([]*syntax.Stmt{x.X})
			p.scoped([]*syntax.Stmt{x.Y})
			return
		}
		p.stmt(x.X)
		p.stmt(x.Y)
	case *syntax.Subshell:
		p.scoped(x.Stmts)
	case *syntax.Block:
		p.stmts(x.Stmts)
	case *syntax.IfClause:
		for clause := x; clause != nil; clause = clause.Else {
			p.stmts(clause.Cond)
			p.stmts(clause.Then)
		}
	case *syntax.WhileClause:
		p.loopChangesDir(x)
		p.stmts(x.Cond)
		p.stmts(x.Do)
	case *syntax.ForClause:
		p.loopChangesDir(x)
		p.loop(x.Loop)
		p.stmts(x.Do)
	case *syntax.CaseClause:
		p.nested(x.Word)
		for _, item := range x.Items {
			for _, pattern := range item.Patterns {
				p.nested(pattern)
			}
			p.stmts(item.Stmts)
		}
	case *syntax.FuncDecl:
		p.function(x)
	case *syntax.ArithmCmd:
		p.arithm(x.X)
	case *syntax.LetClause:
		for _, e := range x.Exprs {
			p.arithm(e)
		}
	case *syntax.TestClause:
		p.test(x.X)
	case *syntax.DeclClause:
		p.declare(x)
	case *syntax.TimeClause:
		if x.Stmt != nil {
			p.stmt(x.Stmt)
		}
	case *syntax.CoprocClause:
		p.opaque("coproc runs a command beside the shell, which cannot be judged")
		p.stmt(x.Stmt)
	default:
		p.opaque("%T cannot be judged", c)
	}
}

// loopChangesDir loses the directory when a loop may change it: each
// pass starts where the last one left, which a single walk of the body
// cannot follow.
func (p *parser) loopChangesDir(loop syntax.Node) {
	syntax.Walk(loop, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok {
			for _, arg := range call.Args {
				switch text, _, _ := literalText(arg, argWord); text {
				case "cd", "pushd", "popd":
					p.loseDir()
				}
			}
		}
		return !p.lost
	})
}

// loop walks a for loop's header.
func (p *parser) loop(l syntax.Loop) {
	switch x := l.(type) {
	case *syntax.WordIter:
		p.checkName(x.Name.Value)
		numeric := true
		var values []string
		known := len(x.Items) > 0 && x.InPos.IsValid()
		for _, item := range x.Items {
			p.nested(item)
			w := p.word(item, argWord)
			numeric = numeric && w.literal && isArithSafeValue(w.text)
			if w.literal {
				values = append(values, globbing(w.text))
				continue
			}
			pats, unknown := p.pathPatterns(item)
			known = known && unknown == ""
			values = append(values, pats...)
		}
		if !known || !numeric {
			p.taint(x.Name.Value)
		}
		if known {
			p.setPlain(x.Name.Value, values)
		}
	case *syntax.CStyleLoop:
		for _, e := range []syntax.ArithmExpr{x.Init, x.Cond, x.Post} {
			if e != nil {
				p.arithm(e)
			}
		}
	}
}

// function walks a function declaration. The body runs where the
// function is called, in whatever directory that is, so relative writes
// in it cannot be placed, and a cd in it loses the directory for the rest
// of the line.
func (p *parser) function(f *syntax.FuncDecl) {
	names := f.Names
	if f.Name != nil {
		names = append([]*syntax.Lit{f.Name}, names...)
	}
	for _, name := range names {
		if shadowed(name.Value) {
			p.opaque("the function %s hides the command of that name", name.Value)
		}
		p.funcs = append(p.funcs, name.Value)
	}
	lost, cds := p.lost, p.cds
	p.lost = true
	p.stmt(f.Body)
	p.lost = lost || p.cds != cds
	p.away = p.away || p.cds != cds
}

// redirect walks one redirection and records the file it writes.
func (p *parser) redirect(r *syntax.Redirect) {
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
		// {name}>file stores the descriptor's number in name.
		p.checkName(strings.Trim(r.N.Value, "{}"))
	}
	if r.Word != nil {
		p.nested(r.Word)
	}
	if r.Hdoc != nil {
		p.nested(r.Hdoc)
	}
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn:
		p.cmd.input = true
	}
	if r.Word != nil && !isProcSubst(r.Word) {
		p.redirectReads(r)
	}
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll,
		syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
	case syntax.RdrInOut:
		p.cmd.input = true
	case syntax.DplOut:
		// >&N and >&- duplicate or close a descriptor; >&file writes.
		if w := p.word(r.Word, argWord); w.literal && isDescriptor(w.text) {
			return
		}
	default:
		return
	}
	if isProcSubst(r.Word) {
		return // a pipe into a command the walk has judged
	}
	w := p.word(r.Word, argWord)
	if !w.literal {
		p.unknownWrite(w.text, "redirect", "cannot tell where a redirection writes: %s is known only when it runs", w.text)
		return
	}
	p.write(w.text, "redirect")
}

// isDescriptor reports whether the word after >& names a descriptor:
// digits, "-", or digits then "-".
func isDescriptor(s string) bool {
	if s == "-" {
		return true
	}
	s = strings.TrimSuffix(s, "-")
	return s != "" && isNumber(s)
}

// isProcSubst reports whether w is exactly one process substitution.
func isProcSubst(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	_, ok := w.Parts[0].(*syntax.ProcSubst)
	return ok
}

// nested walks what runs inside a word: command and process
// substitutions, and the arithmetic in it.
func (p *parser) nested(w *syntax.Word) {
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			p.scoped(x.Stmts)
			return false
		case *syntax.ProcSubst:
			p.scoped(x.Stmts)
			return false
		case *syntax.ArithmExp:
			p.arith.refs(x.X)
		case *syntax.ParamExp:
			p.param(x)
		}
		return true
	})
}

// test walks a [[ ]] expression.
func (p *parser) test(e syntax.TestExpr) {
	switch x := e.(type) {
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			// Both sides are evaluated as arithmetic.
			p.arith.testOperand(x.X)
			p.arith.testOperand(x.Y)
		}
		p.test(x.X)
		p.test(x.Y)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsVarSet {
			if w, ok := x.X.(*syntax.Word); !ok || !validName(p.word(w, argWord).text) {
				p.opaque("[[ -v ]] on a subscript evaluates arithmetic, which can run commands")
			}
		}
		p.test(x.X)
	case *syntax.ParenTest:
		p.test(x.X)
	case *syntax.Word:
		p.nested(x)
	}
}

// arithm walks an arithmetic command or let expression.
func (p *parser) arithm(e syntax.ArithmExpr) {
	p.arith.refs(e)
	syntax.Walk(e, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			p.scoped(x.Stmts)
			return false
		case *syntax.ParamExp:
			p.param(x)
		}
		return true
	})
}

// param notes what a parameter expansion evaluates: subscripts and
// slices are arithmetic, and ${x:=v} assigns.
func (p *parser) param(x *syntax.ParamExp) {
	if x.Excl && x.Param != nil && x.Index == nil && x.Names == 0 {
		// ${!x} takes x's value as a name, evaluating its subscript as
		// arithmetic: x='a[$(cmd)]' runs cmd.
		p.arith.use(x.Param.Value)
	}
	if x.Index != nil {
		p.arith.refs(x.Index)
	}
	if x.Slice != nil {
		if x.Slice.Offset != nil {
			p.arith.refs(x.Slice.Offset)
		}
		if x.Slice.Length != nil {
			p.arith.refs(x.Slice.Length)
		}
	}
	if x.Exp != nil && x.Exp.Op == syntax.OtherParamOps {
		// ${x@P} expands the value as a prompt, command substitutions
		// included; the other operators only quote or change case.
		if text, literal, _ := literalText(x.Exp.Word, argWord); !literal || strings.Trim(text, "QEAKaUuLk") != "" {
			p.opaque("${…@%s} expands a value as a prompt, which can run commands hidden in it", text)
		}
	}
	if x.Exp != nil && x.Param != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
		p.checkName(x.Param.Value)
		p.taint(x.Param.Value)
	}
}
