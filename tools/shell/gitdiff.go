package shell

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/sourcegraph/go-diff/diff"
)

// gitDiff is what git diff or git show printed, read as diff cards.
type gitDiff struct {
	// diffs holds one FileDiff per hunk, in the order git printed them.
	diffs []presentation.FileDiff
	// notShown names each file git listed without a hunk to show (binary,
	// renamed or copied unchanged, a mode change, an empty file deleted),
	// with the reason: "logo.png (binary)".
	notShown []string
}

// errNoGitDiff is the error of output that holds no "diff --git" header.
var errNoGitDiff = errors.New("no git diff header in the output")

// gitHeader starts each file of git's unified diff output.
const gitHeader = "diff --git "

// devNull is the name a diff gives the missing side of a new or deleted
// file.
const devNull = "/dev/null"

// parseGitDiff reads git's unified diff output (github.com/sourcegraph/
// go-diff) into one FileDiff per hunk. Whatever precedes the first
// "diff --git" line (git show's commit header) is set aside. Each side of
// a hunk holds whole lines, each with its line break as the file has it
// (only a line git marks "\ No newline at end of file" lacks one):
// context and removed lines make OldText (nil when the hunk has no old
// line, as for a new file), context and added lines make NewText ("" for
// a deleted file); a CRLF line keeps its "\r\n". Paths are
// the new name (the old one for a deleted file) with git's a/ b/ prefixes
// stripped, joined to root unless root is "". It fails, so the caller can
// show the output as it is, when there is no diff in out, when go-diff
// cannot parse it, when it parses a different number of files than out
// has headers, or when a hunk's lines do not add up to its header's
// counts (a combined or word diff, or text that follows the last hunk).
func parseGitDiff(out, root string) (gitDiff, error) {
	start := headerLine(out)
	if start < 0 {
		return gitDiff{}, errNoGitDiff
	}
	out = out[start:]
	files, err := diff.ParseMultiFileDiffOptions([]byte(out), diff.ParseOptions{KeepCR: true})
	if err != nil {
		return gitDiff{}, fmt.Errorf("parse git diff: %w", err)
	}
	if headers := countHeaders(out); headers != len(files) {
		return gitDiff{}, fmt.Errorf("parse git diff: %d files read from %d headers", len(files), headers)
	}
	var d gitDiff
	for _, f := range files {
		path, err := diffPath(f)
		if err != nil {
			return gitDiff{}, err
		}
		if len(f.Hunks) == 0 {
			if reason := noHunkReason(f); reason != "" {
				d.notShown = append(d.notShown, path+" ("+reason+")")
			} else {
				d.diffs = append(d.diffs, presentation.NewFileDiff(commandPath(root, path), ""))
			}
			continue
		}
		for _, h := range f.Hunks {
			fd, err := hunkDiff(h)
			if err != nil {
				return gitDiff{}, fmt.Errorf("parse git diff of %s: %w", path, err)
			}
			fd.Path = commandPath(root, path)
			d.diffs = append(d.diffs, fd)
		}
	}
	return d, nil
}

// headerLine returns the offset of the first line of out that starts
// with "diff --git ", or -1.
func headerLine(out string) int {
	if strings.HasPrefix(out, gitHeader) {
		return 0
	}
	if i := strings.Index(out, "\n"+gitHeader); i >= 0 {
		return i + 1
	}
	return -1
}

// countHeaders counts the lines of out that start with "diff --git ".
// No line of a hunk can: each starts with " ", "+", "-" or "\".
func countHeaders(out string) int {
	n := strings.Count(out, "\n"+gitHeader)
	if strings.HasPrefix(out, gitHeader) {
		n++
	}
	return n
}

// hunkDiff rebuilds the two sides of one hunk from its lines, checking
// them against the hunk's header. Each line keeps its line break, except
// where git marked "\ No newline at end of file" (go-diff records the
// mark of an old line as OrigNoNewlineAt and drops the line break of a
// new or context line). An empty line counts as an empty context line, as
// patch reads it. Line is the hunk's first changed line in the new file.
func hunkDiff(h *diff.Hunk) (presentation.FileDiff, error) {
	var before, after strings.Builder
	oldLines, newLines, lead := 0, 0, 0
	changed := false
	body := string(h.Body)
	for at := 0; at < len(body); {
		line, _, broken := strings.Cut(body[at:], "\n")
		at += len(line)
		if broken {
			at++ // the line break
		}
		if line == "" {
			line = " "
		}
		text, brk := line[1:], "\n"
		if !broken {
			brk = ""
		}
		switch line[0] {
		case ' ':
			before.WriteString(text + brk)
			after.WriteString(text + brk)
			oldLines, newLines = oldLines+1, newLines+1
			if !changed {
				lead++
			}
		case '-':
			if h.OrigNoNewlineAt > 0 && int(h.OrigNoNewlineAt) == at {
				brk = ""
			}
			before.WriteString(text + brk)
			oldLines, changed = oldLines+1, true
		case '+':
			after.WriteString(text + brk)
			newLines, changed = newLines+1, true
		default:
			return presentation.FileDiff{}, fmt.Errorf("hunk line %q is not context, removed or added", line)
		}
	}
	if oldLines != int(h.OrigLines) || newLines != int(h.NewLines) {
		return presentation.FileDiff{}, fmt.Errorf("hunk @@ -%d,%d +%d,%d @@ has %d old and %d new lines",
			h.OrigStartLine, h.OrigLines, h.NewStartLine, h.NewLines, oldLines, newLines)
	}
	fd := presentation.FileDiff{NewText: after.String()}
	if line := int(h.NewStartLine) + lead; changed && line >= 1 {
		fd.Line = line
	}
	if oldLines > 0 {
		oldText := before.String()
		fd.OldText = &oldText
	}
	return fd, nil
}

// diffPath is the file a FileDiff changes: its new name, or its old name
// when it was deleted, without git's side prefixes.
func diffPath(f *diff.FileDiff) (string, error) {
	orig, next := stripPrefixes(f.OrigName, f.NewName)
	switch {
	case next != "" && next != devNull:
		return next, nil
	case orig != "" && orig != devNull:
		return orig, nil
	}
	return "", fmt.Errorf("parse git diff: no file name in %q", strings.Join(f.Extended, "\n"))
}

// stripPrefixes removes git's prefixes from a diff's two names: "a/" and
// "b/", or the mnemonic ones ("c/", "i/", "w/", "o/"). Only a pair is
// stripped, both names prefixed (or /dev/null), so the names of
// git diff --no-prefix stay whole.
func stripPrefixes(orig, next string) (string, string) {
	prefixed := func(name string) bool {
		return name == devNull || (len(name) > 2 && name[1] == '/' && strings.IndexByte("abciwo", name[0]) >= 0)
	}
	if !prefixed(orig) || !prefixed(next) || (orig == devNull && next == devNull) {
		return orig, next
	}
	strip := func(name string) string {
		if name == devNull {
			return name
		}
		return name[2:]
	}
	return strip(orig), strip(next)
}

// unquoteName reads a name git wrote in an extended header: C-quoted when
// it holds special characters (git's octal escapes read as Go's), as is
// otherwise.
func unquoteName(name string) string {
	if strings.HasPrefix(name, `"`) {
		if s, err := strconv.Unquote(name); err == nil {
			return s
		}
	}
	return name
}

// noHunkReason says why a file git listed has no hunk, or "" for a new
// empty file (which a diff card shows as created empty).
func noHunkReason(f *diff.FileDiff) string {
	reason := "no text changes"
	for _, x := range f.Extended {
		switch {
		case strings.HasPrefix(x, "Binary files ") || x == "GIT binary patch":
			return "binary"
		case strings.HasPrefix(x, "rename from "):
			reason = "renamed from " + unquoteName(strings.TrimPrefix(x, "rename from "))
		case strings.HasPrefix(x, "copy from "):
			reason = "copied from " + unquoteName(strings.TrimPrefix(x, "copy from "))
		case strings.HasPrefix(x, "deleted file mode "):
			reason = "deleted"
		case strings.HasPrefix(x, "new file mode "):
			reason = ""
		case strings.HasPrefix(x, "new mode ") && reason == "no text changes":
			reason = "mode changed"
		}
	}
	return reason
}
