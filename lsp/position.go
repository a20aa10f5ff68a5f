package lsp

import (
	"strings"
	"unicode/utf8"
)

// lineText returns line n (0-based) of text without its line break, and
// false when text has no such line.
func lineText(text string, n int) (string, bool) {
	for i := 0; i < n; i++ {
		nl := strings.IndexByte(text, '\n')
		if nl < 0 {
			return "", false
		}
		text = text[nl+1:]
	}
	if nl := strings.IndexByte(text, '\n'); nl >= 0 {
		text = text[:nl]
	}
	return strings.TrimSuffix(text, "\r"), true
}

// utf16Column converts a column counted in characters (0-based) on line
// to the UTF-16 code units LSP counts. A column past the end of the line
// is clamped to its end.
func utf16Column(line string, chars int) uint32 {
	var units uint32
	for _, r := range line {
		if chars == 0 {
			break
		}
		units += uint32(utf16Len(r))
		chars--
	}
	return units
}

// charColumn converts a UTF-16 offset on line (LSP's character) to a
// column counted in characters (0-based). An offset inside a surrogate
// pair or past the end of the line is clamped.
func charColumn(line string, units uint32) int {
	chars := 0
	for _, r := range line {
		n := uint32(utf16Len(r))
		if units < n {
			break
		}
		units -= n
		chars++
	}
	return chars
}

// utf16Len is the number of UTF-16 code units r takes.
func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}
