package diffcard

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// Site is one replacement an edit made in the text before it: the OldLen
// bytes of before at byte offset Offset were replaced by New. An insertion
// has OldLen 0.
type Site struct {
	Offset int
	OldLen int
	New    string
}

// ErrBadSite reports sites that are out of range, overlapping or not in
// ascending order.
var ErrBadSite = errors.New("invalid edit site")

// EditHunks returns the applied hunks of an edit that made the replacements
// sites in before: the same FileDiffs as Hunks(path, before, after) for the
// resulting after (see ApplySites), but built from the sites instead of by
// diffing the whole file.
//
// Sites must be in ascending order of Offset and must not overlap (zero-
// length sites at one offset are applied in order); otherwise the error
// wraps ErrBadSite. The cost is one pass over before to find line starts,
// plus work proportional to the lines the sites touch and to any run of
// repeated lines a change can slide through.
//
// Callers may rely on exact equality with Hunks whenever the changed lines
// fall into one group (any single replacement, and sites that share or
// neighbour lines) and whenever the stretch from the first to the last
// changed line is at most 4096 lines (old plus new): both then run the same
// diff on the same lines, guard included. Sites scattered more widely are
// diffed one by one; that equals Hunks whenever the minimal diff of the
// whole file aligns the unchanged lines between sites with each other —
// always so unless the text around the sites repeats the replaced lines,
// in which case the hunks are still a correct diff of before and after.
func EditHunks(path, before string, sites []Site) ([]presentation.FileDiff, error) {
	v, err := newEditView(before, sites)
	if err != nil {
		return nil, err
	}
	return v.diff(exactSpanLines).fileDiffs(path), nil
}

// ApplySites returns before with the replacements sites made. Sites follow
// the rules of EditHunks; an error wraps ErrBadSite.
func ApplySites(before string, sites []Site) (string, error) {
	if err := checkSites(before, sites); err != nil {
		return "", err
	}
	var b strings.Builder
	pos := 0
	for _, s := range sites {
		b.WriteString(before[pos:s.Offset])
		b.WriteString(s.New)
		pos = s.Offset + s.OldLen
	}
	b.WriteString(before[pos:])
	return b.String(), nil
}

// checkSites validates sites against before.
func checkSites(before string, sites []Site) error {
	prevEnd := 0
	for i, s := range sites {
		switch {
		case s.OldLen < 0 || s.Offset < 0 || s.Offset > len(before)-s.OldLen:
			return fmt.Errorf("diffcard: site %d (offset %d, length %d) is outside the %d-byte text: %w",
				i, s.Offset, s.OldLen, len(before), ErrBadSite)
		case s.Offset < prevEnd:
			return fmt.Errorf("diffcard: site %d (offset %d) overlaps or precedes the site before it (ending at %d): %w",
				i, s.Offset, prevEnd, ErrBadSite)
		}
		prevEnd = s.Offset + s.OldLen
	}
	return nil
}
