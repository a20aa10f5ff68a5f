package ignore

import (
	"strings"
	"unicode/utf8"
)

// segKind says how a segment matches, so the common shapes skip the
// general wildcard matcher.
type segKind uint8

const (
	segLiteral segKind = iota // the exact text
	segStar                   // "*": any one segment
	segAny                    // "**": any number of segments
	segSuffix                 // "*" then literal text
	segPrefix                 // literal text then "*"
	segWild                   // anything else: the token matcher
)

// segment matches one path segment (a name without '/').
type segment struct {
	kind   segKind
	text   string  // the literal, prefix or suffix
	tokens []token // for segWild
}

// tokKind is a wildcard token's kind.
type tokKind uint8

const (
	tokLiteral tokKind = iota
	tokStar
	tokQuestion
	tokClass
)

// token is one element of a wildcard segment.
type token struct {
	kind   tokKind
	text   string      // tokLiteral
	ranges []runeRange // tokClass
	negate bool        // tokClass
}

// runeRange is an inclusive range of a character class.
type runeRange struct{ lo, hi rune }

// compileSegment compiles one segment of a pattern. "**" alone is segAny;
// "**" next to other text is an ordinary '*'.
func compileSegment(s string) segment {
	if s == "**" {
		return segment{kind: segAny}
	}
	tokens := tokenize(s)
	switch {
	case len(tokens) == 1 && tokens[0].kind == tokLiteral:
		return segment{kind: segLiteral, text: tokens[0].text}
	case len(tokens) == 1 && tokens[0].kind == tokStar:
		return segment{kind: segStar}
	case len(tokens) == 2 && tokens[0].kind == tokStar && tokens[1].kind == tokLiteral:
		return segment{kind: segSuffix, text: tokens[1].text}
	case len(tokens) == 2 && tokens[0].kind == tokLiteral && tokens[1].kind == tokStar:
		return segment{kind: segPrefix, text: tokens[0].text}
	}
	return segment{kind: segWild, tokens: tokens}
}

// tokenize splits a segment into literal runs, '*', '?' and classes.
// Consecutive stars collapse; a backslash makes the next character literal;
// an unterminated '[' is literal.
func tokenize(s string) []token {
	var out []token
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, token{kind: tokLiteral, text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '\\':
			if i+1 < len(s) {
				_, size := utf8.DecodeRuneInString(s[i+1:])
				lit.WriteString(s[i+1 : i+1+size])
				i += 1 + size
			} else {
				lit.WriteByte(c)
				i++
			}
		case '*':
			flush()
			if len(out) == 0 || out[len(out)-1].kind != tokStar {
				out = append(out, token{kind: tokStar})
			}
			i++
		case '?':
			flush()
			out = append(out, token{kind: tokQuestion})
			i++
		case '[':
			if tok, n, ok := parseClass(s[i:]); ok {
				flush()
				out = append(out, tok)
				i += n
			} else {
				lit.WriteByte(c)
				i++
			}
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
	return out
}

// parseClass parses a character class at the start of s ("[abc]", "[a-z]",
// "[!x]" or "[^x]"), returning its token and length.
func parseClass(s string) (token, int, bool) {
	tok := token{kind: tokClass}
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		tok.negate = true
		i++
	}
	first := true
	for i < len(s) {
		if s[i] == ']' && !first {
			return tok, i + 1, true
		}
		first = false
		lo, n := classRune(s[i:])
		i += n
		hi := lo
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			hi, n = classRune(s[i+1:])
			i += 1 + n
		}
		tok.ranges = append(tok.ranges, runeRange{lo, hi})
	}
	return token{}, 0, false
}

// classRune decodes one (possibly backslash-escaped) class character.
func classRune(s string) (rune, int) {
	if s[0] == '\\' && len(s) > 1 {
		r, n := utf8.DecodeRuneInString(s[1:])
		return r, n + 1
	}
	return utf8.DecodeRuneInString(s)
}

// match reports whether the segment matches name.
func (s segment) match(name string) bool {
	switch s.kind {
	case segLiteral:
		return name == s.text
	case segStar, segAny:
		return true
	case segSuffix:
		return strings.HasSuffix(name, s.text)
	case segPrefix:
		return strings.HasPrefix(name, s.text)
	}
	return matchTokens(s.tokens, name)
}

// matchTokens is the general wildcard matcher: '*' backtracks to the most
// recent star only, which is enough because a star cannot cross '/'.
func matchTokens(tokens []token, name string) bool {
	ti, ni := 0, 0
	starTi, starNi := -1, 0
	for {
		if ti < len(tokens) {
			t := tokens[ti]
			switch t.kind {
			case tokStar:
				starTi, starNi = ti, ni
				ti++
				continue
			case tokLiteral:
				if strings.HasPrefix(name[ni:], t.text) {
					ti++
					ni += len(t.text)
					continue
				}
			case tokQuestion:
				if ni < len(name) {
					_, n := utf8.DecodeRuneInString(name[ni:])
					ti++
					ni += n
					continue
				}
			case tokClass:
				if ni < len(name) {
					r, n := utf8.DecodeRuneInString(name[ni:])
					if t.classHas(r) {
						ti++
						ni += n
						continue
					}
				}
			}
		} else if ni == len(name) {
			return true
		}
		if starTi < 0 || starNi >= len(name) {
			return false
		}
		_, n := utf8.DecodeRuneInString(name[starNi:])
		starNi += n
		ti, ni = starTi+1, starNi
	}
}

// classHas reports whether the class admits r.
func (t token) classHas(r rune) bool {
	in := false
	for _, rg := range t.ranges {
		if rg.lo <= r && r <= rg.hi {
			in = true
			break
		}
	}
	return in != t.negate
}
