package diffcard

// The guard bounds the work of the line diff. After the lines both texts
// share at the start and at the end are set aside, n old and m new lines
// remain. A minimal line diff of them with D deleted plus inserted lines
// costs about (n+m)·D steps; when that product exceeds GuardBudget, or when
// n+m exceeds GuardMaxLines, the diff is abandoned and the whole file is
// shown as one change (old = all of before, new = all of after). A pure
// insertion or deletion (n == 0 or m == 0) never trips the guard: it costs
// nothing to find.
//
// With GuardBudget = 2^25 a 10,000-line file may change up to about 1,600
// lines, and a 1 MB file of 16,000 lines up to about 1,000 lines, before
// the guard trips. The guarded work (a bounded Myers pass that measures D,
// then the diff itself) stays around 100 ms in the worst case measured
// (random lines from a 4-line alphabet) on a 2-vCPU machine; ordinary
// source edits take a few milliseconds.
const (
	// GuardBudget bounds (n+m)·D, the work of a line diff (see above).
	GuardBudget = 1 << 25
	// GuardMaxLines bounds n+m, the lines left to diff (see above). It also
	// keeps the line-to-rune mapping within the Unicode code space.
	GuardMaxLines = 1 << 20
)

// noLimit is the distance limit that disables the guard.
const noLimit = -1

// guardLimit returns the largest edit distance the guard allows for a diff
// of n old and m new lines, noLimit when no diff of that size can trip the
// guard, and ok == false when the diff must not be attempted at all.
func guardLimit(n, m int) (limit int, ok bool) {
	if n == 0 || m == 0 {
		return noLimit, true
	}
	t := n + m
	if t > GuardMaxLines {
		return 0, false
	}
	if t*t <= GuardBudget {
		return noLimit, true // D <= n+m, so (n+m)·D cannot exceed the budget
	}
	return GuardBudget / t, true
}

// distanceLowerBound is a cheap lower bound of the edit distance: every
// line occurring more often on one side than on the other must be deleted
// or inserted that many times.
func distanceLowerBound(a, b []rune, ids int) int {
	counts := make([]int32, ids)
	for _, r := range a {
		counts[runeID(r)]++
	}
	for _, r := range b {
		counts[runeID(r)]--
	}
	d := 0
	for _, c := range counts {
		if c < 0 {
			c = -c
		}
		d += int(c)
	}
	return d
}

// editDistance returns the number of deleted plus inserted elements of a
// minimal diff of a and b, or -1 when that exceeds limit. It is the greedy
// forward pass of Myers' O((n+m)·D) algorithm and keeps no path, so its
// work is bounded by about (n+m)·limit steps and its memory by the limit.
func editDistance(a, b []rune, limit int) int {
	n, m := len(a), len(b)
	off := limit + 1
	v := make([]int, 2*limit+3) // v[off+k]: furthest x on diagonal k, -1 if none
	for d := 0; d <= limit; d++ {
		for k := -d; k <= d; k += 2 {
			x := -1
			if d == 0 {
				x = 0
			} else {
				// Down from diagonal k+1: an inserted element of b.
				if k+1 <= d-1 {
					if px := v[off+k+1]; px >= 0 && px-(k+1) < m {
						x = px
					}
				}
				// Right from diagonal k-1: a deleted element of a.
				if k-1 >= -(d - 1) {
					if px := v[off+k-1]; px >= 0 && px < n && px+1 > x {
						x = px + 1
					}
				}
			}
			if x < 0 || x-k < 0 || x-k > m {
				v[off+k] = -1
				continue
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x == n && y == m {
				return d
			}
		}
	}
	return -1
}
