package diffcard

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sourcegraph/go-diff/diff"
)

// noNewline is the marker unified diffs print after a line that has no
// terminator.
const noNewline = `\ No newline at end of file`

// Unified returns the unified diff that turns before into after, with the
// same hunks as Hunks (Context lines of context, the same guard), printed by
// github.com/sourcegraph/go-diff: a "--- oldName" and a "+++ newName"
// header line, then "@@ -s,n +s,n @@" hunks (counts always written; an empty
// side is "-0,0" or "+0,0"). A line without a final newline is followed by
// "\ No newline at end of file", so GNU patch, git apply and Apply all
// reproduce after exactly, CRLF included. Names holding a tab, newline,
// quote or backslash are written Go-quoted, which ParseFileDiff unquotes.
// Identical texts give "" and a nil error.
func Unified(oldName, newName, before, after string) (string, error) {
	d := diffTexts(before, after)
	if len(d.changes) == 0 {
		return "", nil
	}
	fd := &diff.FileDiff{OrigName: quoteName(oldName), NewName: quoteName(newName)}
	for _, h := range d.hunks(Context) {
		fd.Hunks = append(fd.Hunks, d.unifiedHunk(h))
	}
	out, err := diff.PrintFileDiff(fd)
	if err != nil {
		return "", fmt.Errorf("diffcard: print unified diff: %w", err)
	}
	return string(out), nil
}

// unifiedHunk writes h as a sourcegraph hunk. Within each change the deleted
// lines come before the inserted ones. The go-diff printer writes the
// no-newline marker for the old side at OrigNoNewlineAt (an offset in Body
// just after the unterminated old line, whose "\n" Body keeps) and for the
// new side when Body itself does not end in "\n".
func (d lineDiff) unifiedHunk(h hunk) *diff.Hunk {
	uh := &diff.Hunk{
		OrigStartLine: startLine(h.o0, h.o1),
		OrigLines:     int32(h.o1 - h.o0),
		NewStartLine:  startLine(h.n0, h.n1),
		NewLines:      int32(h.n1 - h.n0),
	}
	var body strings.Builder
	put := func(prefix byte, l string) {
		body.WriteByte(prefix)
		body.WriteString(l)
	}
	// putOld writes a line that exists on the old side only. An old line
	// without a terminator gets one in Body and the marker position.
	putOld := func(l string) {
		put('-', l)
		if !strings.HasSuffix(l, "\n") {
			body.WriteByte('\n')
			uh.OrigNoNewlineAt = int32(body.Len())
		}
	}
	// putNew writes a context or inserted line. Only the last line of a
	// file can lack a terminator, and it is then the last line of the body,
	// which the printer marks.
	o, n := h.o0, h.n0
	for _, c := range h.changes {
		for ; o < c.o0; o, n = o+1, n+1 {
			put(' ', d.a.line(o))
		}
		for ; o < c.o1; o++ {
			putOld(d.a.line(o))
		}
		for ; n < c.n1; n++ {
			put('+', d.b.line(n))
		}
	}
	for ; o < h.o1; o, n = o+1, n+1 {
		put(' ', d.a.line(o))
	}
	uh.Body = []byte(body.String())
	return uh
}

// startLine is the 1-based first line of a hunk side, or, for an empty side,
// the line it follows (0 at the start of the file), as GNU diff writes it.
func startLine(lo, hi int) int32 {
	if hi == lo {
		return int32(lo)
	}
	return int32(lo + 1)
}

// quoteName quotes a file name that a diff header could not hold verbatim.
func quoteName(name string) string {
	if strings.ContainsAny(name, "\t\n\r\"\\") {
		return strconv.Quote(name)
	}
	return name
}
