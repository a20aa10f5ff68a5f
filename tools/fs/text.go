package fs

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// sniffBytes is how much of a file is searched for a NUL byte to call it
// binary, as git and grep do.
const sniffBytes = 8 << 10

// isText reports whether data is text the tools may show and change: no
// NUL byte in its first 8 KiB, and valid UTF-8 throughout.
func isText(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), sniffBytes)], 0) < 0 && utf8.Valid(data)
}

// lineEndings is how a text ends its lines.
type lineEndings int

const (
	endingsNone  lineEndings = iota // no line break at all
	endingsLF                       // every line break is "\n"
	endingsCRLF                     // every line break is "\r\n"
	endingsMixed                    // both occur
)

// detectEndings classifies the line breaks of s.
func detectEndings(s string) lineEndings {
	lf := strings.Count(s, "\n")
	if lf == 0 {
		return endingsNone
	}
	switch crlf := strings.Count(s, "\r\n"); crlf {
	case 0:
		return endingsLF
	case lf:
		return endingsCRLF
	default:
		return endingsMixed
	}
}

// toLF turns every "\r\n" of s into "\n".
func toLF(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// countLines returns the number of lines in s: its line breaks, plus one
// for a last line without a break.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// lineOf returns the 1-based line the byte offset off of s falls on.
func lineOf(s string, off int) int {
	return strings.Count(s[:off], "\n") + 1
}
