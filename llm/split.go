package llm

import (
	"unicode"
)

// splitAfterSpace cuts s into pieces that each end after a run of white
// space (the last piece may not), so "Hello big world" becomes "Hello ",
// "big ", "world". The pieces concatenate to s exactly; "" gives none.
func splitAfterSpace(s string) []string {
	var pieces []string
	start, inSpace, seenWord := 0, false, false
	for i, r := range s {
		space := unicode.IsSpace(r)
		if inSpace && !space && seenWord {
			pieces = append(pieces, s[start:i])
			start = i
		}
		inSpace = space
		seenWord = seenWord || !space
	}
	if start < len(s) {
		pieces = append(pieces, s[start:])
	}
	return pieces
}
