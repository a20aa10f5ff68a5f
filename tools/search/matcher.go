package search

import (
	"regexp"
	"regexp/syntax"
)

// matcher is a compiled grep pattern. A line matches when line matches its
// text (without the '\n'; a '\r' stays, as in ripgrep). prefilter and
// block find candidate lines in a buffer of many lines at once; every
// candidate is confirmed with line.
type matcher struct {
	line *regexp.Regexp
	// block is the pattern in multi-line mode, nil when it could miss a
	// line's match (\A and \z mean the buffer's ends there).
	block *regexp.Regexp
	// prefilter is text of which every match contains one piece; nil
	// when none is known.
	prefilter *literalSet
}

// compileMatcher compiles pattern with Go's RE2 syntax.
func compileMatcher(pattern string) (*matcher, error) {
	line, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	m := &matcher{line: line}
	multi := "(?m)" + pattern
	if tree, err := syntax.Parse(multi, syntax.Perl); err == nil {
		tree = tree.Simplify()
		if !hasTextAnchor(tree) {
			m.block, _ = regexp.Compile(multi)
		}
		if set, ok := requiredSet(tree); ok && set.useful() {
			m.prefilter = set.finish()
		}
	}
	return m, nil
}

// hasTextAnchor reports whether re holds \A or \z.
func hasTextAnchor(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
		return true
	}
	for _, sub := range re.Sub {
		if hasTextAnchor(sub) {
			return true
		}
	}
	return false
}

// asciiLower lower-cases the ASCII letters of s.
func asciiLower(s string) string {
	b := []byte(s)
	lowerASCII(b, b)
	return string(b)
}

// lowerASCII writes src to dst (at least as long) with ASCII letters
// lower-cased.
func lowerASCII(dst, src []byte) {
	dst = dst[:len(src)]
	for i, c := range src {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
}
