package command

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arithmetic tracks the one way bash runs commands hidden in data: when
// it evaluates a variable's value as arithmetic ($((x)), ((x)), let,
// [[ x -eq y ]], array subscripts, slices), a value such as
// 'a[$(rm -rf ~)]' runs its command substitution. A variable the line
// sets from input (read, mapfile, a for loop over names, x=$(…)) may hold
// such a value; one inherited from the environment or set to a number may
// not. The line is opaque when arithmetic reads a variable it may have
// set from input, a positional parameter, an indirection, or a command's
// output.
type arithmetic struct {
	tainted []string // variables the line may set from input
	used    []string // variables whose values arithmetic evaluates
	// assigned are the variables arithmetic assigns ((PATH = 1) would
	// change where programs are found).
	assigned []string
	unsafe   string // why arithmetic is unsafe whatever the variables hold
}

// taint notes that the line may set name from input.
func (a *arithmetic) taint(name string) {
	if !slices.Contains(a.tainted, name) {
		a.tainted = append(a.tainted, name)
	}
}

// use notes that arithmetic evaluates name's value.
func (a *arithmetic) use(name string) {
	if !slices.Contains(a.used, name) {
		a.used = append(a.used, name)
	}
}

// refs notes the variables arithmetic expression e evaluates.
func (a *arithmetic) refs(e syntax.Node) {
	syntax.Walk(e, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Word:
			if len(x.Parts) == 1 {
				if lit, ok := x.Parts[0].(*syntax.Lit); ok && validName(lit.Value) {
					a.use(lit.Value)
				}
			}
			a.quoted(x)
		case *syntax.ParamExp:
			a.param(x)
		case *syntax.CmdSubst:
			a.unsafe = "arithmetic on a command's output can run commands hidden in it"
			return false
		case *syntax.BinaryArithm:
			switch x.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
				syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn,
				syntax.ShrAssgn, syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
				a.assign(x.X)
			}
		case *syntax.UnaryArithm:
			if x.Op == syntax.Inc || x.Op == syntax.Dec {
				a.assign(x.X)
			}
		}
		return true
	})
}

// assign notes the variable an arithmetic assignment sets.
func (a *arithmetic) assign(e syntax.ArithmExpr) {
	if w, ok := e.(*syntax.Word); ok {
		if text, _, _ := literalText(w, argWord); validName(text) && !slices.Contains(a.assigned, text) {
			a.assigned = append(a.assigned, text)
		}
	}
}

// quoted notes the quoted parts of an arithmetic word (let 'x=y+1'):
// bash evaluates their text as arithmetic too, so a subscript or
// expansion in it is unsafe and every name in it is read.
func (a *arithmetic) quoted(w *syntax.Word) {
	for _, part := range w.Parts {
		var text string
		switch q := part.(type) {
		case *syntax.SglQuoted:
			text = q.Value
		case *syntax.DblQuoted:
			for _, inner := range q.Parts {
				if lit, ok := inner.(*syntax.Lit); ok {
					text += lit.Value
				}
			}
		default:
			continue
		}
		if strings.ContainsAny(text, "[$`") {
			a.unsafe = "arithmetic on a quoted expression with a subscript or expansion can run commands hidden in it"
			return
		}
		for _, name := range strings.FieldsFunc(text, func(r rune) bool {
			return !(r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9'))
		}) {
			if validName(name) {
				a.use(name)
			}
		}
	}
}

// param notes a parameter expansion inside arithmetic.
func (a *arithmetic) param(x *syntax.ParamExp) {
	if x.Param == nil || x.Excl || x.NestedParam != nil {
		a.unsafe = "arithmetic on an indirect expansion can run commands hidden in it"
		return
	}
	switch name := x.Param.Value; name {
	case "#", "?", "$", "!":
		// Numbers the shell sets itself.
	case "@", "*", "_", "-", "0":
		a.unsafe = "arithmetic on $" + name + " can run commands hidden in it"
	default:
		if isNumber(name) {
			a.unsafe = "arithmetic on $" + name + " can run commands hidden in it"
			return
		}
		a.use(name)
	}
}

// testOperand notes an operand of [[ x -eq y ]], which bash evaluates as
// arithmetic.
func (a *arithmetic) testOperand(e syntax.TestExpr) {
	if w, ok := e.(*syntax.Word); ok {
		a.refs(w)
	}
}

// verdict reports whether the line's arithmetic is safe, and why not.
func (a *arithmetic) verdict() (reason string, ok bool) {
	if a.unsafe != "" {
		return a.unsafe, false
	}
	for _, name := range a.used {
		if slices.Contains(a.tainted, name) {
			return "arithmetic on $" + name + ", which the command sets from input, can run commands hidden in it", false
		}
	}
	return "", true
}

// isNumber reports whether s is a non-empty run of ASCII digits.
func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isArithSafeValue reports whether a literal value cannot hide a command
// from arithmetic: an optionally signed number, or nothing.
func isArithSafeValue(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	return s == "" || isNumber(s)
}

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	return syntax.ValidName(s)
}
