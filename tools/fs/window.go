package fs

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// window returns up to limit lines of text starting at the 1-based line
// offset, and the number of the line after the last one returned when
// more remain (0 at the end of the file). A line over maxLine bytes is cut
// at a character boundary and marked; once the lines returned hold
// maxOutput bytes the window ends early, but it always holds at least one
// line when offset is within text.
func window(text string, offset, limit, maxLine, maxOutput int) ([]ReadLine, int) {
	rest := text
	for n := 1; n < offset && rest != ""; n++ {
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			rest = ""
			break
		}
		rest = rest[i+1:]
	}
	var lines []ReadLine
	size := 0
	for n := offset; rest != ""; n++ {
		if len(lines) == limit || (len(lines) > 0 && size >= maxOutput) {
			return lines, n
		}
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		line = cutLine(strings.TrimSuffix(line, "\r"), maxLine)
		size += len(line)
		lines = append(lines, ReadLine{Number: n, Text: line})
	}
	return lines, 0
}

// cutLine returns line, or its first max bytes (at a character boundary)
// followed by a marker saying how long it is.
func cutLine(line string, max int) string {
	if len(line) <= max {
		return line
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… [line cut: %d bytes in all]", line[:cut], len(line))
}
