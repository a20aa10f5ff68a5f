package diffcard

import "strings"

// lineSource is a text seen as lines. Lines are split after each "\n" only,
// so a CRLF line is a line whose text ends in "\r", and a missing final
// newline is simply a last line without a terminator. Every line returned by
// line keeps its terminator.
type lineSource interface {
	// lineCount is the number of lines.
	lineCount() int
	// line returns line i (0-based) with its terminator, if any.
	line(i int) string
	// span returns lines [lo, hi) concatenated, terminators included.
	span(lo, hi int) string
}

// text is a string split into lines by their start offsets.
type text struct {
	s      string
	starts []int // starts[i] is the offset of line i; starts[n] == len(s)
}

// newText indexes s by line in one pass.
func newText(s string) text {
	starts := make([]int, 1, strings.Count(s, "\n")+2)
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	if starts[len(starts)-1] != len(s) {
		starts = append(starts, len(s))
	}
	return text{s: s, starts: starts}
}

func (t text) lineCount() int         { return len(t.starts) - 1 }
func (t text) line(i int) string      { return t.s[t.starts[i]:t.starts[i+1]] }
func (t text) span(lo, hi int) string { return t.s[t.starts[lo]:t.starts[hi]] }

// lineOf returns the index of the line holding byte offset x, where an
// offset at the very end belongs to an unterminated last line if there is
// one, and to the (empty) position after the last line otherwise.
func (t text) lineOf(x int) int {
	n := t.lineCount()
	lo, hi := 0, n // find the last i in [0, n] with starts[i] <= x
	for lo < hi {
		mid := int(uint(lo+hi+1) >> 1)
		if t.starts[mid] <= x {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == n && n > 0 && !strings.HasSuffix(t.s, "\n") {
		return n - 1
	}
	return lo
}

// commonPrefix is the number of leading lines a and b share, counted from
// line from (which both must already share up to).
func commonPrefix(a, b lineSource, from int) int {
	n := min(a.lineCount(), b.lineCount())
	i := from
	for i < n && a.line(i) == b.line(i) {
		i++
	}
	return i
}

// commonSuffix is the number of trailing lines a and b share outside their
// first prefix lines, counted from k lines already known to be shared.
func commonSuffix(a, b lineSource, prefix, k int) int {
	na, nb := a.lineCount(), b.lineCount()
	limit := min(na, nb) - prefix
	k = min(k, limit)
	for k < limit && a.line(na-1-k) == b.line(nb-1-k) {
		k++
	}
	return k
}
