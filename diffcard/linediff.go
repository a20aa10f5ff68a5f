package diffcard

import (
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffRange computes a minimal line diff of old lines [o0, o1) of a and new
// lines [n0, n1) of b with diffmatchpatch in line mode: every distinct line
// becomes one rune, the rune sequences are diffed with DiffTimeout = 0 (so
// the result depends only on the input), and the rune counts of the result
// are read back as line counts. It returns the changes in a's and b's line
// numbers and their total cost (deleted plus inserted lines).
//
// When limit is not noLimit, the diff is abandoned (ok == false) as soon as
// its cost is known to exceed limit, after at most about
// (o1-o0+n1-n0)·limit steps.
func diffRange(a, b lineSource, o0, o1, n0, n1, limit int) (changes []change, cost int, ok bool) {
	n, m := o1-o0, n1-n0
	if n == 0 && m == 0 {
		return nil, 0, true
	}
	if n == 0 || m == 0 {
		return []change{{o0, o1, n0, n1}}, n + m, true
	}
	ra, rb, ids := lineRunes(a, b, o0, o1, n0, n1)
	if limit != noLimit {
		if distanceLowerBound(ra, rb, ids) > limit || editDistance(ra, rb, limit) < 0 {
			return nil, 0, false
		}
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	x, y := o0, n0
	var cur *change
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		k := utf8.RuneCountInString(d.Text)
		if d.Type == diffmatchpatch.DiffEqual {
			x += k
			y += k
			cur = nil
			continue
		}
		if cur == nil {
			changes = append(changes, change{x, x, y, y})
			cur = &changes[len(changes)-1]
		}
		if d.Type == diffmatchpatch.DiffDelete {
			x += k
			cur.o1 = x
		} else {
			y += k
			cur.n1 = y
		}
		cost += k
	}
	return changes, cost, true
}

// lineRunes maps every distinct line of the two ranges to its own rune and
// returns both ranges as rune sequences and the number of distinct lines.
// Rune values skip the surrogate range, which a Go string cannot hold.
func lineRunes(a, b lineSource, o0, o1, n0, n1 int) (ra, rb []rune, ids int) {
	index := make(map[string]rune, o1-o0)
	encode := func(src lineSource, lo, hi int) []rune {
		rs := make([]rune, hi-lo)
		for i := lo; i < hi; i++ {
			l := src.line(i)
			r, seen := index[l]
			if !seen {
				r = idRune(len(index))
				index[l] = r
			}
			rs[i-lo] = r
		}
		return rs
	}
	ra = encode(a, o0, o1)
	rb = encode(b, n0, n1)
	return ra, rb, len(index)
}

const surrogateMin, surrogateCount = 0xD800, 0x800

// idRune is the rune standing for line id; runeID inverts it.
func idRune(id int) rune {
	if id >= surrogateMin {
		id += surrogateCount
	}
	return rune(id)
}

func runeID(r rune) int {
	if r >= surrogateMin {
		return int(r) - surrogateCount
	}
	return int(r)
}
