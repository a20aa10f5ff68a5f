package shell

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// snapWindow is how far a cut point may move to land on a line boundary.
const snapWindow = 256

// validText returns b as a string, each invalid UTF-8 sequence replaced by
// U+FFFD, so results and progress are always valid text.
func validText(b []byte) string {
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// completePrefix returns the length of b without a trailing rune that has
// started but not finished, so b[:n] never splits a multi-byte character
// that the next bytes may complete. Invalid bytes count as complete.
func completePrefix(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			return len(b)
		}
	}
	return len(b)
}

// cutHead shortens a kept head so it ends after a newline when one is near
// its end, and otherwise on a whole character.
func cutHead(b []byte) []byte {
	window := b[max(0, len(b)-snapWindow):]
	if i := bytes.LastIndexByte(window, '\n'); i >= 0 {
		return b[:len(b)-len(window)+i+1]
	}
	return b[:completePrefix(b)]
}

// cutTail shortens a kept tail so it starts after a newline when one is
// near its start, and otherwise on a whole character.
func cutTail(b []byte) []byte {
	if i := bytes.IndexByte(b[:min(len(b), snapWindow)], '\n'); i >= 0 && i+1 < len(b) {
		return b[i+1:]
	}
	return b[runeStart(b):]
}

// runeStart returns the index of the first byte of b that starts a
// character, skipping at most the continuation bytes of one cut rune.
func runeStart(b []byte) int {
	i := 0
	for i < len(b) && i < utf8.UTFMax-1 && !utf8.RuneStart(b[i]) {
		i++
	}
	return i
}

// runeJoiner turns a stream of byte chunks into valid UTF-8 text chunks
// without splitting a character across two of them.
type runeJoiner struct {
	pending []byte
}

// next returns the text of b, holding back a trailing incomplete character
// until the next call completes it.
func (j *runeJoiner) next(b []byte) string {
	data := b
	if len(j.pending) > 0 {
		data = append(j.pending, b...)
	}
	n := completePrefix(data)
	j.pending = append(j.pending[:0:0], data[n:]...)
	return validText(data[:n])
}

// flush returns what is still held back (as U+FFFD: the stream ended in
// the middle of a character).
func (j *runeJoiner) flush() string {
	text := validText(j.pending)
	j.pending = nil
	return text
}
