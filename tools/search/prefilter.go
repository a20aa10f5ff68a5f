package search

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxSetSize caps how many strings a prefilter set may hold.
const maxSetSize = 32

// literalSet is a set of strings of which every match of a regular
// expression contains at least one: "TODO|FIXME" gives {TODO, FIXME},
// `\(\d\)` gives {(0), …, (9)}. When fold is set the strings are
// lower-case and are looked for in lower-cased text.
type literalSet struct {
	lits []string
	fold bool
	// foldKS: a folded string holds 'k' or 's', which (?i) also matches
	// as the Kelvin sign and the long s, so text holding those two
	// cannot be prefiltered.
	foldKS bool
	// bytes are lits as byte slices, for the scanner.
	bytes [][]byte
}

// useful reports whether looking for the set is cheaper than running the
// regular expression: every string at least two bytes long.
func (s literalSet) useful() bool {
	if len(s.lits) == 0 {
		return false
	}
	for _, l := range s.lits {
		if len(l) < 2 {
			return false
		}
	}
	return true
}

// finish lower-cases a folded set and prepares it for the scanner.
func (s literalSet) finish() *literalSet {
	out := &literalSet{fold: s.fold}
	for _, l := range s.lits {
		if s.fold {
			l = asciiLower(l)
			out.foldKS = out.foldKS || strings.ContainsAny(l, "ks")
		}
		if !slices.Contains(out.lits, l) {
			out.lits = append(out.lits, l)
			out.bytes = append(out.bytes, []byte(l))
		}
	}
	return out
}

// minLen is the length of the set's shortest string.
func (s literalSet) minLen() int {
	n := -1
	for _, l := range s.lits {
		if n < 0 || len(l) < n {
			n = len(l)
		}
	}
	return n
}

// goodLen is the string length past which a longer string barely makes a
// prefilter more selective, while every extra string costs a pass.
const goodLen = 4

// better reports whether s is a cheaper, more selective prefilter than o:
// a shortest string closer to goodLen, then fewer strings, then longer
// strings, then case-sensitive.
func (s literalSet) better(o literalSet) bool {
	switch {
	case len(o.lits) == 0:
		return len(s.lits) > 0
	case len(s.lits) == 0:
		return false
	}
	sl, ol := min(s.minLen(), goodLen), min(o.minLen(), goodLen)
	switch {
	case sl != ol:
		return sl > ol
	case len(s.lits) != len(o.lits):
		return len(s.lits) < len(o.lits)
	case s.minLen() != o.minLen():
		return s.minLen() > o.minLen()
	}
	return !s.fold && o.fold
}

// product is every string of s followed by every string of o; ok is false
// when that would exceed maxSetSize.
func (s literalSet) product(o literalSet) (literalSet, bool) {
	if len(s.lits)*len(o.lits) > maxSetSize {
		return literalSet{}, false
	}
	out := literalSet{fold: s.fold || o.fold}
	for _, a := range s.lits {
		for _, b := range o.lits {
			out.lits = append(out.lits, a+b)
		}
	}
	return out, true
}

// union is the strings of s and o; ok is false past maxSetSize.
func (s literalSet) union(o literalSet) (literalSet, bool) {
	if len(s.lits)+len(o.lits) > maxSetSize {
		return literalSet{}, false
	}
	return literalSet{lits: append(slices.Clone(s.lits), o.lits...), fold: s.fold || o.fold}, true
}

// exactSet returns the finite set of strings re matches, when it is small:
// literals, small character classes, and concatenations, alternations and
// optional parts of those.
func exactSet(re *syntax.Regexp) (literalSet, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return literalSet{lits: []string{""}}, true
	case syntax.OpLiteral:
		text := string(re.Rune)
		if re.Flags&syntax.FoldCase == 0 {
			return literalSet{lits: []string{text}}, true
		}
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				return literalSet{}, false
			}
		}
		return literalSet{lits: []string{text}, fold: true}, true
	case syntax.OpCharClass:
		var out literalSet
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out.lits) == 10 {
					return literalSet{}, false
				}
				out.lits = append(out.lits, string(r))
			}
		}
		return out, len(out.lits) > 0
	case syntax.OpCapture:
		return exactSet(re.Sub[0])
	case syntax.OpQuest:
		sub, ok := exactSet(re.Sub[0])
		if !ok {
			return literalSet{}, false
		}
		return sub.union(literalSet{lits: []string{""}})
	case syntax.OpConcat:
		out := literalSet{lits: []string{""}}
		for _, sub := range re.Sub {
			set, ok := exactSet(sub)
			if !ok {
				return literalSet{}, false
			}
			if out, ok = out.product(set); !ok {
				return literalSet{}, false
			}
		}
		return out, true
	case syntax.OpAlternate:
		var out literalSet
		for _, sub := range re.Sub {
			set, ok := exactSet(sub)
			if !ok {
				return literalSet{}, false
			}
			if out, ok = out.union(set); !ok {
				return literalSet{}, false
			}
		}
		return out, true
	}
	return literalSet{}, false
}

// requiredSet returns the most selective set of strings of which every
// match of re contains one; ok is false when none is known.
func requiredSet(re *syntax.Regexp) (literalSet, bool) {
	if set, ok := exactSet(re); ok && re.Op != syntax.OpConcat && !slices.Contains(set.lits, "") {
		// A concatenation weighs its whole product against its parts
		// below.
		return set, true
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return requiredSet(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredSet(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out literalSet
		for _, sub := range re.Sub {
			set, ok := requiredSet(sub)
			if !ok {
				return literalSet{}, false
			}
			if out, ok = out.union(set); !ok {
				return literalSet{}, false
			}
		}
		return out, true
	case syntax.OpConcat:
		var best literalSet
		for i, sub := range re.Sub {
			if set, ok := requiredSet(sub); ok && set.better(best) {
				best = set
			}
			// Runs of exactly known parts: their product is required.
			run := literalSet{lits: []string{""}}
			for _, next := range re.Sub[i:] {
				set, ok := exactSet(next)
				if !ok {
					break
				}
				if run, ok = run.product(set); !ok {
					break
				}
				if !slices.Contains(run.lits, "") && run.better(best) {
					best = run
				}
			}
		}
		return best, len(best.lits) > 0
	}
	return literalSet{}, false
}
