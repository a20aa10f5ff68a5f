package command

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word as the policy sees it.
type word struct {
	text    string // after quote removal when literal, the source text otherwise
	literal bool   // exactly text when bash runs it
	// optionFree: whatever it expands to cannot start with "-" nor split
	// into words beyond those a glob makes.
	optionFree bool
}

// wordContext says where a word stands: assignment values are neither
// globbed nor brace-expanded, and have tildes expanded after ":" too.
type wordContext int

const (
	argWord wordContext = iota
	assignValue
)

// source returns the text of node as written.
func (p *parser) source(n syntax.Node) string {
	start, end := n.Pos().Offset(), n.End().Offset()
	if start > end || end > uint(len(p.src)) {
		return ""
	}
	return p.src[start:end]
}

// word reads w: its literal text when it has one, else its source.
func (p *parser) word(w *syntax.Word, ctx wordContext) word {
	text, literal, expands := literalText(w, ctx)
	if literal {
		return word{text: text, literal: true, optionFree: !strings.HasPrefix(text, "-")}
	}
	return word{text: p.source(w), optionFree: isProcSubst(w) || (!expands && leadsPlain(w))}
}

// literalText returns w after quote removal and whether that is what bash
// runs. expands reports an unquoted parameter, command or arithmetic
// expansion (which word splitting can cut into several words).
func literalText(w *syntax.Word, ctx wordContext) (text string, literal, expands bool) {
	var b strings.Builder
	literal = true
	for i, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			v := x.Value
			if ctx == argWord && (hasGlob(v) || (strings.Contains(v, "{") && hasBraceExpansion(w))) {
				literal = false
			}
			// Tildes expand at the start of a word, and after "=" or ":"
			// in anything shaped like an assignment.
			if (i == 0 && strings.HasPrefix(v, "~")) || strings.Contains(v, ":~") || strings.Contains(v, "=~") {
				literal = false
			}
			b.WriteString(unescapeUnquoted(v))
		case *syntax.SglQuoted:
			if x.Dollar {
				literal = false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			if x.Dollar {
				literal = false
			}
			for _, inner := range x.Parts {
				lit, ok := inner.(*syntax.Lit)
				if !ok {
					literal = false
					continue
				}
				b.WriteString(unescapeDouble(lit.Value))
			}
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
			literal, expands = false, true
		default: // process substitutions, extended globs, brace expansions
			literal, expands = false, true
		}
	}
	return b.String(), literal, expands
}

// leadsPlain reports whether w starts with a literal character that no
// expansion can turn into "-": a letter, digit, ".", "/" or "_", outside
// any brace expansion or glob.
func leadsPlain(w *syntax.Word) bool {
	var first byte
	switch x := w.Parts[0].(type) {
	case *syntax.Lit:
		if x.Value == "" {
			return false
		}
		first = x.Value[0]
	case *syntax.SglQuoted:
		if x.Dollar || x.Value == "" {
			return false
		}
		first = x.Value[0]
	case *syntax.DblQuoted:
		lit, ok := firstLit(x.Parts)
		if !ok || lit == "" {
			return false
		}
		first = lit[0]
	default:
		return false
	}
	return first == '.' || first == '/' || first == '_' ||
		('a' <= first && first <= 'z') || ('A' <= first && first <= 'Z') || ('0' <= first && first <= '9')
}

// firstLit returns the value of parts' first element when it is a Lit.
func firstLit(parts []syntax.WordPart) (string, bool) {
	if len(parts) == 0 {
		return "", false
	}
	lit, ok := parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	return lit.Value, true
}

// hasGlob reports whether an unquoted literal holds a pattern character
// that is not escaped: *, ?, or a [ with a ] after it.
func hasGlob(v string) bool {
	open := false
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			open = true
		case ']':
			if open {
				return true
			}
		}
	}
	return false
}

// hasBraceExpansion reports whether bash would brace-expand w: a brace
// pair holding a comma or a sequence ("{}" and "{a}" stay as they are).
func hasBraceExpansion(w *syntax.Word) bool {
	// SplitBraces rewrites the word it is given: hand it a copy.
	clone := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(clone) {
		return false
	}
	return braceExpands(clone.Parts)
}

// braceExpands reports whether parts hold a brace expansion with a comma
// or a sequence, at any depth.
func braceExpands(parts []syntax.WordPart) bool {
	for _, part := range parts {
		b, ok := part.(*syntax.BraceExp)
		if !ok {
			continue
		}
		if b.Sequence || len(b.Elems) > 1 {
			return true
		}
		for _, e := range b.Elems {
			if braceExpands(e.Parts) {
				return true
			}
		}
	}
	return false
}

// unescapeUnquoted removes the backslashes of an unquoted literal.
func unescapeUnquoted(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that double quotes remove: those
// before $ ` " \ and newline.
func unescapeDouble(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			switch v[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}
