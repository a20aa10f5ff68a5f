package jsonvalue

import (
	"errors"
	"strconv"
)

// ErrNotLossless is wrapped by every error that rejects a value JSON can
// spell but the project's lossless JSON cannot hold: a number that overflows
// float64, negative zero (including numbers that underflow to it), NaN and
// infinities, and Go values [Marshal] cannot encode. Test for it with
// [errors.Is].
var ErrNotLossless = errors.New("value is not lossless JSON")

// SyntaxError reports text that is not one strict RFC 8259 JSON value, or
// that nests deeper than the depth limit (10000, as encoding/json).
type SyntaxError struct {
	// Offset is the byte offset in the input at which the error was found.
	Offset int
	msg    string
}

// Error returns "jsonvalue: <description> at offset <n>".
func (e *SyntaxError) Error() string {
	return "jsonvalue: " + e.msg + " at offset " + strconv.Itoa(e.Offset)
}
