package fs

import (
	"fmt"
	"strings"
)

// maxListedLines is how many line numbers a not-unique error lists.
const maxListedLines = 10

// notUniqueError is the error for an old_string found at several offsets
// without replace_all: it says how many and where.
func notUniqueError(name, text string, offsets []int) error {
	var lines []string
	line, from := 1, 0
	for _, off := range offsets[:min(len(offsets), maxListedLines)] {
		line += strings.Count(text[from:off], "\n")
		from = off
		lines = append(lines, fmt.Sprint(line))
	}
	where := strings.Join(lines, ", ")
	if len(offsets) > maxListedLines {
		where += ", …"
	}
	return toolError(CodeNotUnique, "old_string occurs %d times in %s (on lines %s): add surrounding lines to old_string so it matches exactly one place, or set replace_all to true to replace every occurrence", len(offsets), name, where)
}

// notFoundError is the error for an old_string that does not occur in
// text. When a looser comparison finds it, the error says which, so the
// model knows what to fix.
func notFoundError(name, text, old string, endings lineEndings) error {
	msg := fmt.Sprintf("old_string was not found in %s: read the file again and copy the exact text, including whitespace and indentation", name)
	if hint := notFoundHint(text, old, endings); hint != "" {
		msg += ". " + hint
	}
	return toolError(CodeNoMatch, "%s", msg)
}

// notFoundHint explains why old was not found, or returns "".
func notFoundHint(text, old string, endings lineEndings) string {
	if hasLineNumbers(old) {
		return "old_string seems to include the line-number prefixes read shows (\"    12<tab>\"): leave them out"
	}
	text, old = toLF(text), toLF(old)
	if endings == endingsMixed && strings.Contains(text, old) {
		return "It matches when line endings are ignored, but this file mixes CRLF and LF line endings, so old_string must match them byte for byte: edit within a single line, or rewrite the file with write"
	}
	if strings.Contains(trimLineEnds(text), trimLineEnds(old)) {
		return "It matches only when spaces and tabs at the ends of lines are ignored: copy the lines exactly, trailing whitespace included"
	}
	if strings.Contains(collapseSpace(text), collapseSpace(old)) {
		return "It matches only when whitespace is ignored: check the indentation (tabs or spaces) and the line breaks"
	}
	if strings.Contains(strings.ToLower(text), strings.ToLower(old)) {
		return "It matches only when letter case is ignored: check upper and lower case"
	}
	return ""
}

// hasLineNumbers reports whether every non-empty line of s starts with a
// read line-number prefix.
func hasLineNumbers(s string) bool {
	seen := false
	for line := range strings.SplitSeq(s, "\n") {
		if line == "" {
			continue
		}
		if !hasLineNumber(line) {
			return false
		}
		seen = true
	}
	return seen
}

// hasLineNumber reports whether line starts with the "    12\t" read puts
// before each line.
func hasLineNumber(line string) bool {
	rest := strings.TrimLeft(line, " ")
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	return digits > 0 && strings.HasPrefix(rest[digits:], "\t")
}

// trimLineEnds removes the spaces and tabs that end each line of s.
func trimLineEnds(s string) string {
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.TrimRight(line, " \t\r"))
	}
	return b.String()
}

// collapseSpace turns every run of whitespace in s into one space and trims
// its ends.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
