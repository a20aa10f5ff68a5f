package diffcard

import "github.com/dsh-acp/dsh-acp/presentation"

// Context is the number of unchanged lines shown around each change, as in
// diff -U3. Changes separated by at most 2·Context unchanged lines share one
// hunk (their context windows overlap or touch), exactly as GNU diff groups
// them.
const Context = 3

// Hunks returns the applied hunks that turn before into after: one FileDiff
// per unified hunk with Context lines of context, in file order, each
// carrying path.
//
// Callers may rely on the following.
//   - Each side holds whole lines exactly as the text holds them, each with
//     its own line break: deleted and context lines on the old side,
//     inserted and context lines on the new side. Lines are split after
//     "\n" only, so a CRLF line ends in "\r\n", and only a last line that
//     really has no line break ends without one (a client that diffs the
//     two sides sees "\ No newline at end of file" exactly where the file
//     lacks one). Joining the sides of consecutive hunks with the lines
//     between them gives the texts back byte for byte.
//   - Line is the 1-based number of the hunk's first changed line in after
//     (lines before the first hunk's change are the same in both texts, so
//     the first hunk's Line is also where before starts to differ).
//   - OldText is nil when the hunk has no old lines (a pure insertion, such as
//     all of a new file); NewText is "" for a pure deletion.
//   - Identical texts give nil.
//   - The hunks are those of a minimal line diff (github.com/sergi/go-diff in
//     line mode, DiffTimeout 0, so the result depends only on the input),
//     except when the guard trips (see GuardBudget): then the result is one
//     FileDiff holding all of before and all of after.
//   - EditHunks gives the same result for the texts of an edit.
func Hunks(path, before, after string) []presentation.FileDiff {
	return diffTexts(before, after).fileDiffs(path)
}

// lineDiff is a line diff of two texts: the changes that turn a into b.
type lineDiff struct {
	a, b    lineSource
	changes []change
}

// diffTexts diffs before and after by lines.
func diffTexts(before, after string) lineDiff {
	a, b := newText(before), newText(after)
	if before == after {
		return lineDiff{a: a, b: b}
	}
	p := commonPrefix(a, b, 0)
	s := commonSuffix(a, b, p, 0)
	o1, n1 := a.lineCount()-s, b.lineCount()-s
	return diffMiddle(a, b, p, o1, n1)
}

// diffMiddle diffs old lines [p, o1) of a against new lines [p, n1) of b,
// the lines left once the shared prefix and suffix are set aside, under the
// guard.
func diffMiddle(a, b lineSource, p, o1, n1 int) lineDiff {
	limit, ok := guardLimit(o1-p, n1-p)
	if ok {
		var changes []change
		if changes, _, ok = diffRange(a, b, p, o1, p, n1, limit); ok {
			return lineDiff{a: a, b: b, changes: changes}.slideDown()
		}
	}
	return wholeFile(a, b)
}

// wholeFile is the guard's fallback: every line of a replaced by every line
// of b.
func wholeFile(a, b lineSource) lineDiff {
	return lineDiff{a: a, b: b, changes: []change{{0, a.lineCount(), 0, b.lineCount()}}}
}

// hunk is one unified hunk: old lines [o0, o1) and new lines [n0, n1) with
// the changes inside them; the lines around and between the changes are
// equal on both sides.
type hunk struct {
	o0, o1, n0, n1 int
	changes        []change
}

// hunks groups the changes into hunks with context lines of context: a
// change joins the previous hunk when at most 2·context equal lines separate
// them, as in GNU diff.
func (d lineDiff) hunks(context int) []hunk {
	var hs []hunk
	na := d.a.lineCount()
	for i := 0; i < len(d.changes); {
		first := d.changes[i]
		j := i + 1
		for j < len(d.changes) && d.changes[j].o0-d.changes[j-1].o1 <= 2*context {
			j++
		}
		last := d.changes[j-1]
		prevEnd := 0
		if i > 0 {
			prevEnd = d.changes[i-1].o1
		}
		nextStart := na
		if j < len(d.changes) {
			nextStart = d.changes[j].o0
		}
		lead := min(context, first.o0-prevEnd)
		trail := min(context, nextStart-last.o1)
		hs = append(hs, hunk{
			o0: first.o0 - lead, o1: last.o1 + trail,
			n0: first.n0 - lead, n1: last.n1 + trail,
			changes: d.changes[i:j],
		})
		i = j
	}
	return hs
}

// fileDiffs writes one FileDiff per hunk: its lines, terminators
// included, and where its first change is.
func (d lineDiff) fileDiffs(path string) []presentation.FileDiff {
	hs := d.hunks(Context)
	if len(hs) == 0 {
		return nil
	}
	out := make([]presentation.FileDiff, len(hs))
	for i, h := range hs {
		out[i] = presentation.FileDiff{Path: path, NewText: d.b.span(h.n0, h.n1), Line: h.changes[0].n0 + 1}
		if h.o1 > h.o0 {
			old := d.a.span(h.o0, h.o1)
			out[i].OldText = &old
		}
	}
	return out
}
