package jsonvalue

import (
	"unicode/utf16"
	"unicode/utf8"
)

// string parses a JSON string at the current position (which holds the
// opening quote). A string without escapes or invalid UTF-8 is returned as a
// substring of the input, without allocating.
func (p *parser) string() (string, error) {
	start := p.pos + 1
	text := p.text
	for i := start; i < len(text); {
		c := text[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' {
			i++
			continue
		}
		switch {
		case c == '"':
			p.pos = i + 1
			return text[start:i], nil
		case c == '\\':
			return p.unescape(start, i)
		case c < 0x20:
			p.pos = i
			return "", p.unexpected("in string literal")
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && size == 1 {
				return p.unescape(start, i)
			}
			i += size
		}
	}
	p.pos = len(text)
	return "", p.unexpected("in string literal")
}

// unescape finishes a string that needs decoding: text[start:i] is plain and
// text[i] starts the first escape or invalid UTF-8 byte.
func (p *parser) unescape(start, i int) (string, error) {
	text := p.text
	buf := make([]byte, 0, len(text[start:i])+16)
	buf = append(buf, text[start:i]...)
	for i < len(text) {
		c := text[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return string(buf), nil
		case c < 0x20:
			p.pos = i
			return "", p.unexpected("in string literal")
		case c < utf8.RuneSelf && c != '\\':
			buf = append(buf, c)
			i++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(text[i:])
			buf = utf8.AppendRune(buf, r) // invalid bytes become U+FFFD
			i += size
		default:
			r, n, err := p.escape(i)
			if err != nil {
				return "", err
			}
			buf = utf8.AppendRune(buf, r)
			i += n
		}
	}
	p.pos = len(text)
	return "", p.unexpected("in string literal")
}

// escape decodes the escape sequence at text[i] (a backslash) and returns
// the rune and the number of bytes it spans. Surrogate pairs combine; a lone
// surrogate decodes to U+FFFD and the following text is left for the next
// call, as encoding/json does.
func (p *parser) escape(i int) (rune, int, error) {
	text := p.text
	if i+1 >= len(text) {
		p.pos = len(text)
		return 0, 0, p.unexpected("in string escape code")
	}
	switch text[i+1] {
	case '"', '\\', '/':
		return rune(text[i+1]), 2, nil
	case 'b':
		return '\b', 2, nil
	case 'f':
		return '\f', 2, nil
	case 'n':
		return '\n', 2, nil
	case 'r':
		return '\r', 2, nil
	case 't':
		return '\t', 2, nil
	case 'u':
		r, err := p.hex4(i + 2)
		if err != nil {
			return 0, 0, err
		}
		if !utf16.IsSurrogate(r) {
			return r, 6, nil
		}
		if i+7 < len(text) && text[i+6] == '\\' && text[i+7] == 'u' {
			if r2, ok := parseHex4(text[i+8:]); ok {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					return pair, 12, nil
				}
			}
		}
		return utf8.RuneError, 6, nil
	}
	p.pos = i + 1
	return 0, 0, p.unexpected("in string escape code")
}

// hex4 decodes the four hex digits of a \u escape starting at text[i].
func (p *parser) hex4(i int) (rune, error) {
	for j := i; j < i+4; j++ {
		if j >= len(p.text) || !isHex(p.text[j]) {
			p.pos = j
			return 0, p.unexpected("in \\u hexadecimal character escape")
		}
	}
	r, _ := parseHex4(p.text[i:])
	return r, nil
}

func parseHex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

const hexDigits = "0123456789abcdef"

// appendQuoted appends s as a JSON string exactly as encoding/json does with
// HTML escaping off: quote, backslash and control characters escaped (\b,
// \f, \n, \r, \t by name, the rest as \u00XX), U+2028 and U+2029 escaped,
// invalid UTF-8 as \ufffd, everything else literal.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
