package ignore

import "strings"

// Match is what a set of patterns says about a path.
type Match uint8

const (
	// None: no pattern matched; the decision falls to the next set.
	None Match = iota
	// Ignore: the last matching pattern excludes the path.
	Ignore
	// Whitelist: the last matching pattern is a '!' pattern that
	// re-includes the path.
	Whitelist
)

// Rules is one ignore file's patterns, in file order. The zero value and nil
// match nothing.
type Rules struct {
	patterns []*Pattern
}

// Parse reads gitignore text. It never fails: lines that hold no pattern
// are skipped.
func Parse(data []byte) *Rules {
	r := &Rules{}
	for line := range strings.SplitSeq(string(data), "\n") {
		if p, ok := Compile(line); ok {
			r.patterns = append(r.patterns, p)
		}
	}
	return r
}

// Len returns the number of patterns.
func (r *Rules) Len() int {
	if r == nil {
		return 0
	}
	return len(r.patterns)
}

// Match returns what the last pattern matching path says about it: later
// patterns win, as in git. path is slash-separated and relative to the
// directory of the ignore file; isDir says whether it names a directory.
func (r *Rules) Match(path string, isDir bool) Match {
	if r == nil {
		return None
	}
	for i := len(r.patterns) - 1; i >= 0; i-- {
		p := r.patterns[i]
		if p.Matches(path, isDir) {
			if p.negate {
				return Whitelist
			}
			return Ignore
		}
	}
	return None
}
