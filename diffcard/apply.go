package diffcard

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sourcegraph/go-diff/diff"
)

// ErrMalformed reports a unified diff that cannot be parsed or whose hunk
// bodies disagree with their headers.
var ErrMalformed = errors.New("malformed unified diff")

// ErrMismatch reports a hunk whose context or deleted lines are not the
// lines at its position in the text it is applied to.
var ErrMismatch = errors.New("hunk does not match")

// HunkError is the error Apply returns for one hunk. It wraps ErrMalformed
// or ErrMismatch.
type HunkError struct {
	Hunk   int    // 1-based position of the hunk in the diff
	Header string // the hunk's "@@ -s,n +s,n @@" header
	Line   int    // 1-based line of the text where the problem is, 0 if none
	Err    error
}

// Error names the hunk, its header and, when known, the line.
func (e *HunkError) Error() string {
	msg := fmt.Sprintf("diffcard: hunk %d (%s): %v", e.Hunk, e.Header, e.Err)
	if e.Line > 0 {
		msg = fmt.Sprintf("diffcard: hunk %d (%s) at line %d: %v", e.Hunk, e.Header, e.Line, e.Err)
	}
	return msg
}

// Unwrap returns ErrMalformed or ErrMismatch (possibly wrapped).
func (e *HunkError) Unwrap() error { return e.Err }

// Apply applies the single-file unified diff unified to before and returns
// the new text. It is strict: each hunk must sit exactly at the lines its
// header names, every context and deleted line must equal the text there
// byte for byte (terminators and "\r" included; "\ No newline at end of
// file" marks a line without one), and hunks must come in file order
// without overlapping; there is no fuzz and no offset search. The diff is
// parsed by github.com/sourcegraph/go-diff with carriage returns kept. An
// empty unified text, or a file diff without hunks, leaves before unchanged.
// Errors wrap ErrMalformed or ErrMismatch; hunk problems are *HunkError.
func Apply(before, unified string) (string, error) {
	if unified == "" {
		return before, nil
	}
	fd, err := diff.ParseFileDiffOptions([]byte(unified), diff.ParseOptions{KeepCR: true})
	if err != nil {
		return "", fmt.Errorf("diffcard: parse unified diff: %w: %w", ErrMalformed, err)
	}
	a := newText(before)
	var out strings.Builder
	out.Grow(len(before))
	next := 0 // first line of before not yet copied
	for i, h := range fd.Hunks {
		herr := func(line int, err error) error {
			return &HunkError{Hunk: i + 1, Header: hunkHeader(h), Line: line, Err: err}
		}
		old, neu, err := hunkSides(h)
		if err != nil {
			return "", herr(0, err)
		}
		start := int(h.OrigStartLine) - 1 // 0-based first old line
		if len(old) == 0 {
			start = int(h.OrigStartLine) // an empty side names the line it follows
		}
		if start < next || start+len(old) > a.lineCount() {
			return "", herr(int(h.OrigStartLine), fmt.Errorf("%w: lines %d-%d are out of order or beyond the end (%d lines)",
				ErrMismatch, start+1, start+len(old), a.lineCount()))
		}
		if k := len(neu) - 1; k >= 0 && !strings.HasSuffix(neu[k], "\n") && start+len(old) != a.lineCount() {
			return "", herr(int(h.OrigStartLine), fmt.Errorf("%w: a new line without a newline is not at the end of the file", ErrMismatch))
		}
		for k, want := range old {
			if got := a.line(start + k); got != want {
				return "", herr(start+k+1, fmt.Errorf("%w: expected %q, found %q", ErrMismatch, want, got))
			}
		}
		out.WriteString(a.span(next, start))
		for _, l := range neu {
			out.WriteString(l)
		}
		next = start + len(old)
	}
	out.WriteString(a.span(next, a.lineCount()))
	return out.String(), nil
}

// hunkSides splits a parsed hunk body into its old and new lines, each with
// its terminator. go-diff keeps the "\n" of an old line marked "\ No
// newline" and records the marker in OrigNoNewlineAt; a body not ending in
// "\n" means its last (context or inserted) line has no terminator. A body
// line with no prefix at all is an empty context line, as GNU patch reads it.
func hunkSides(h *diff.Hunk) (old, neu []string, err error) {
	body := string(h.Body)
	for pos := 0; pos < len(body); {
		end := strings.IndexByte(body[pos:], '\n')
		if end < 0 {
			end = len(body)
		} else {
			end += pos + 1
		}
		l := body[pos:end]
		if h.OrigNoNewlineAt > 0 && int(h.OrigNoNewlineAt) == end {
			l = strings.TrimSuffix(l, "\n")
		}
		pos = end
		if l == "\n" {
			l = " \n"
		}
		switch l[0] {
		case ' ':
			old = append(old, l[1:])
			neu = append(neu, l[1:])
		case '-':
			old = append(old, l[1:])
		case '+':
			neu = append(neu, l[1:])
		default:
			return nil, nil, fmt.Errorf("%w: body line %q", ErrMalformed, l)
		}
	}
	if len(old) != int(h.OrigLines) || len(neu) != int(h.NewLines) {
		return nil, nil, fmt.Errorf("%w: body has %d old and %d new lines", ErrMalformed, len(old), len(neu))
	}
	return old, neu, nil
}

// hunkHeader renders a hunk's header for error messages.
func hunkHeader(h *diff.Hunk) string {
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OrigStartLine, h.OrigLines, h.NewStartLine, h.NewLines)
}
