package diffcard

import (
	"math/rand/v2"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// genText returns a random text of up to maxLines lines drawn from a small
// alphabet (so diffs of two such texts are non-trivial), sometimes with
// CRLF terminators and sometimes without a final newline.
func genText(r *rand.Rand, maxLines int, alphabet []string) string {
	n := r.IntN(maxLines + 1)
	eol := "\n"
	if r.IntN(4) == 0 {
		eol = "\r\n"
	}
	var b strings.Builder
	for range n {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
		b.WriteString(eol)
	}
	s := b.String()
	if s != "" && r.IntN(4) == 0 {
		s = strings.TrimSuffix(s, eol)
		if r.IntN(2) == 0 {
			s += "\r" // a last line ending in a bare "\r"
		}
	}
	return s
}

// mutate returns a variant of s with a few random line edits.
func mutate(r *rand.Rand, s string, alphabet []string) string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for range r.IntN(5) + 1 {
		i := r.IntN(len(lines) + 1)
		l := alphabet[r.IntN(len(alphabet))] + "\n"
		switch r.IntN(3) {
		case 0:
			lines = append(lines[:i], append([]string{l}, lines[i:]...)...)
		case 1:
			if i < len(lines) {
				lines = append(lines[:i], lines[i+1:]...)
			}
		default:
			if i < len(lines) {
				lines[i] = l
			}
		}
	}
	out := strings.Join(lines, "")
	if r.IntN(5) == 0 {
		out = strings.TrimSuffix(out, "\n")
	}
	return out
}

// genEdit picks a random edit of before the way the edit tool makes one: an
// old string (a random slice of before, sometimes extended to line
// boundaries) and a new string, replaced once or everywhere.
func genEdit(r *rand.Rand, before string, alphabet []string) []Site {
	if before == "" {
		return []Site{{Offset: 0, New: genText(r, 3, alphabet)}}
	}
	i := r.IntN(len(before) + 1)
	j := i + r.IntN(min(len(before)-i, 12)+1)
	if r.IntN(2) == 0 { // whole lines
		i = strings.LastIndexByte(before[:i], '\n') + 1
		if k := strings.IndexByte(before[j:], '\n'); k >= 0 {
			j += k + 1
		} else {
			j = len(before)
		}
	}
	old := before[i:j]
	neu := genText(r, 3, alphabet)
	switch r.IntN(4) {
	case 0:
		neu = old + neu // shares a prefix with old
	case 1:
		neu = neu + old // shares a suffix with old
	case 2:
		neu = strings.TrimSuffix(neu, "\n")
	}
	if old == "" || r.IntN(3) != 0 {
		return []Site{{Offset: i, OldLen: j - i, New: neu}}
	}
	// replace_all: every non-overlapping occurrence, left to right.
	var sites []Site
	for pos := 0; pos <= len(before); {
		k := strings.Index(before[pos:], old)
		if k < 0 {
			break
		}
		sites = append(sites, Site{Offset: pos + k, OldLen: len(old), New: neu})
		pos += k + len(old)
	}
	return sites
}

// equalDiffs compares FileDiffs by value (nil OldText distinct from "").
func equalDiffs(a, b []presentation.FileDiff) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || a[i].NewText != b[i].NewText || a[i].Line != b[i].Line ||
			(a[i].OldText == nil) != (b[i].OldText == nil) || a[i].Old() != b[i].Old() {
			return false
		}
	}
	return true
}
