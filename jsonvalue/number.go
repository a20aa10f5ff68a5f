package jsonvalue

import (
	"fmt"
	"math"
	"strconv"
)

// maxQuotedNumber bounds how much of a rejected number an error repeats.
const maxQuotedNumber = 40

// number parses an RFC 8259 number and converts it to a lossless float64.
func (p *parser) number() (Value, error) {
	start := p.pos
	i := start
	text := p.text
	if text[i] == '-' {
		i++
	}
	digitsStart := i
	switch {
	case i < len(text) && text[i] == '0':
		i++
	case i < len(text) && '1' <= text[i] && text[i] <= '9':
		for i < len(text) && isDigit(text[i]) {
			i++
		}
	default:
		p.pos = i
		return Value{}, p.unexpected("in numeric literal")
	}
	integer := true
	if i < len(text) && text[i] == '.' {
		integer = false
		i++
		if i >= len(text) || !isDigit(text[i]) {
			p.pos = i
			return Value{}, p.unexpected("after decimal point in numeric literal")
		}
		for i < len(text) && isDigit(text[i]) {
			i++
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		integer = false
		i++
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			i++
		}
		if i >= len(text) || !isDigit(text[i]) {
			p.pos = i
			return Value{}, p.unexpected("in exponent of numeric literal")
		}
		for i < len(text) && isDigit(text[i]) {
			i++
		}
	}
	p.pos = i
	literal := text[start:i]

	var f float64
	if integer && i-digitsStart <= 15 {
		// Exact: every integer below 10^15 is a float64.
		var n int64
		for j := digitsStart; j < i; j++ {
			n = n*10 + int64(text[j]-'0')
		}
		f = float64(n)
		if start != digitsStart {
			f = -f
		}
	} else {
		var err error
		f, err = strconv.ParseFloat(literal, 64)
		if err != nil {
			return Value{}, notLossless(literal, start, "overflows float64")
		}
	}
	if f == 0 && math.Signbit(f) {
		return Value{}, notLossless(literal, start, "is negative zero")
	}
	return Value{kind: KindNumber, number: f}, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func notLossless(literal string, offset int, why string) error {
	if len(literal) > maxQuotedNumber {
		literal = literal[:maxQuotedNumber] + "..."
	}
	return fmt.Errorf("jsonvalue: number %s at offset %d %s: %w", literal, offset, why, ErrNotLossless)
}

// appendNumber formats f as encoding/json formats a float64: the shortest
// text that round-trips, in ES6 Number.prototype.toString style.
func appendNumber(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
