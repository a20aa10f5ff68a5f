package diffcard

import (
	"sort"
	"strings"
)

// exactSpanLines is the largest middle (old plus new lines from the first
// to the last changed line) that EditHunks diffs in one piece, exactly as
// Hunks does, when the sites form several separate groups.
const exactSpanLines = 4096

// region is a group of sites that share lines: old lines [o0, o1) of before
// became lines, the region's new lines, starting at line n0 of after.
type region struct {
	o0, o1 int
	n0     int
	lines  text
}

func (r region) n1() int { return r.n0 + r.lines.lineCount() }

// editView is the text after an edit, seen as lines without being built:
// the lines of before outside the regions and the regions' new lines.
type editView struct {
	a       text
	regions []region
	n       int
}

// newEditView groups the sites into regions of whole lines.
func newEditView(before string, sites []Site) (*editView, error) {
	if err := checkSites(before, sites); err != nil {
		return nil, err
	}
	a := newText(before)
	na := a.lineCount()
	v := &editView{a: a, regions: make([]region, 0, len(sites))}
	// lastLine is the end (exclusive) of the lines a site touches: the line
	// holding its end offset is included, so text the replacement joins to
	// that line is part of the region.
	lastLine := func(s Site) int { return min(a.lineOf(s.Offset+s.OldLen)+1, na) }
	delta := 0
	var b strings.Builder
	for i := 0; i < len(sites); {
		o0 := a.lineOf(sites[i].Offset)
		o1 := max(lastLine(sites[i]), o0)
		j := i + 1
		for j < len(sites) && a.lineOf(sites[j].Offset) < o1 {
			o1 = max(o1, lastLine(sites[j]))
			j++
		}
		b.Reset()
		pos := a.starts[o0]
		for _, s := range sites[i:j] {
			b.WriteString(before[pos:s.Offset])
			b.WriteString(s.New)
			pos = s.Offset + s.OldLen
		}
		b.WriteString(before[pos:a.starts[o1]])
		r := region{o0: o0, o1: o1, n0: o0 + delta, lines: newText(b.String())}
		v.regions = append(v.regions, r)
		delta += r.lines.lineCount() - (o1 - o0)
		i = j
	}
	v.n = na + delta
	return v, nil
}

func (v *editView) lineCount() int { return v.n }

func (v *editView) line(i int) string {
	j := sort.Search(len(v.regions), func(j int) bool { return v.regions[j].n0 > i }) - 1
	if j < 0 {
		return v.a.line(i)
	}
	r := v.regions[j]
	if i < r.n1() {
		return r.lines.line(i - r.n0)
	}
	return v.a.line(i - r.n1() + r.o1)
}

func (v *editView) span(lo, hi int) string {
	var b strings.Builder
	for i := lo; i < hi; i++ {
		b.WriteString(v.line(i))
	}
	return b.String()
}

// diff is the line diff of before and after that Hunks would compute,
// found from the regions (see EditHunks for when it is exactly the same).
// Several separate groups of changes whose middle spans at most exactSpan
// lines are diffed in one piece; larger ones group by group.
func (v *editView) diff(exactSpan int) lineDiff {
	a, na := v.a, v.a.lineCount()
	if len(v.regions) == 0 {
		return lineDiff{a: a, b: v}
	}
	// Lines before the first region and after the last are shared; the
	// shared prefix and suffix may reach further, as in diffTexts.
	p := commonPrefix(a, v, v.regions[0].o0)
	s := commonSuffix(a, v, p, na-v.regions[len(v.regions)-1].o1)
	o1, n1 := na-s, v.n-s
	if o1 == p && n1 == p {
		return lineDiff{a: a, b: v}
	}
	// A region inside the shared prefix or suffix, at the same line numbers
	// on both sides, changed nothing; any other region holds changes.
	var active []region
	for _, r := range v.regions {
		inPrefix := r.o1 <= p && r.n1() <= p && r.o0 == r.n0 && r.o1 == r.n1()
		inSuffix := r.o0 >= o1 && r.n0 >= n1 && na-r.o0 == v.n-r.n0 && na-r.o1 == v.n-r.n1()
		if !inPrefix && !inSuffix {
			active = append(active, r)
		}
	}
	if len(active) <= 1 || (o1-p)+(n1-p) <= exactSpan {
		return diffMiddle(a, v, p, o1, n1)
	}
	limit, ok := guardLimit(o1-p, n1-p)
	if !ok {
		return wholeFile(a, v)
	}
	var changes []change
	total := 0
	for _, r := range active {
		lo, hi := max(r.o0, p), min(r.o1, o1)
		nlo, nhi := max(r.n0, p), min(r.n1(), n1)
		if lo > hi || nlo > nhi {
			// The shared prefix or suffix slid past this region's lines:
			// the regions do not separate the diff.
			return diffMiddle(a, v, p, o1, n1)
		}
		for lo < hi && nlo < nhi && a.line(lo) == v.line(nlo) {
			lo, nlo = lo+1, nlo+1
		}
		for lo < hi && nlo < nhi && a.line(hi-1) == v.line(nhi-1) {
			hi, nhi = hi-1, nhi-1
		}
		rest := noLimit
		if limit != noLimit {
			rest = limit - total
		}
		cs, cost, ok := diffRange(a, v, lo, hi, nlo, nhi, rest)
		total += cost
		if !ok || (limit != noLimit && total > limit) {
			return wholeFile(a, v)
		}
		changes = appendChanges(changes, cs)
	}
	return lineDiff{a: a, b: v, changes: changes}.slideDown()
}

// appendChanges appends cs to changes, joining changes that touch.
func appendChanges(changes, cs []change) []change {
	for _, c := range cs {
		if k := len(changes) - 1; k >= 0 && changes[k].o1 == c.o0 && changes[k].n1 == c.n0 {
			changes[k].o1, changes[k].n1 = c.o1, c.n1
			continue
		}
		changes = append(changes, c)
	}
	return changes
}
