package diffcard

// change is one run of differing lines: old lines [o0, o1) are replaced by
// new lines [n0, n1). Lines between consecutive changes are equal on both
// sides, so o0-prev.o1 == n0-prev.n1.
type change struct {
	o0, o1, n0, n1 int
}

// cost is the number of deleted plus inserted lines.
func (c change) cost() int { return c.o1 - c.o0 + c.n1 - c.n0 }

// shift moves c by do old lines and dn new lines.
func (c change) shift(do, dn int) change {
	return change{c.o0 + do, c.o1 + do, c.n0 + dn, c.n1 + dn}
}
