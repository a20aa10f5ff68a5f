package diffcard

// slideDown puts the changes of d in a canonical position: every pure
// insertion or deletion is moved down past the equal lines it can slide
// through (as long as the line after it equals its first line), and a
// change that comes to touch the next one is joined with it. A minimal line
// diff often has a choice where a block of repeated lines goes; sliding
// makes the choice the same however the diff was found, so EditHunks and
// Hunks agree. It works from the last change to the first, in place.
func (d lineDiff) slideDown() lineDiff {
	cs := d.changes
	na, nb := d.a.lineCount(), d.b.lineCount()
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		endO, endN := na, nb // the next change's start, or the ends
		if i+1 < len(cs) {
			endO, endN = cs[i+1].o0, cs[i+1].n0
		}
		switch {
		case c.o0 == c.o1: // insertion
			for c.n1 < endN && d.b.line(c.n0) == d.b.line(c.n1) {
				c = c.shift(1, 1)
			}
		case c.n0 == c.n1: // deletion
			for c.o1 < endO && d.a.line(c.o0) == d.a.line(c.o1) {
				c = c.shift(1, 1)
			}
		}
		if i+1 < len(cs) && c.o1 == endO && c.n1 == endN {
			c.o1, c.n1 = cs[i+1].o1, cs[i+1].n1
			cs = append(cs[:i+1], cs[i+2:]...)
		}
		cs[i] = c
	}
	d.changes = cs
	return d
}
