package lsp

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// PositionArgs are the arguments of definition and references: a place
// in a file, by line and column or by line and symbol.
type PositionArgs struct {
	FilePath string `json:"file_path" jsonschema:"the file, absolute or relative to the working directory"`
	Line     int    `json:"line" jsonschema:"the 1-based line number, as read shows it"`
	Column   int    `json:"column,omitempty" jsonschema:"the 1-based column, counted in characters; optional when symbol is given"`
	Symbol   string `json:"symbol,omitempty" jsonschema:"the identifier on that line to look up; its occurrence at or after column (or the first) is used"`
}

// position returns the LSP position args name in text: the occurrence of
// Symbol on the line (at or after Column when both are given), else
// Column, else the line's first non-blank character.
func (a PositionArgs) position(text string) (protocol.Position, error) {
	if a.Line < 1 {
		return protocol.Position{}, fmt.Errorf("line must be 1 or more")
	}
	line, ok := lineText(text, a.Line-1)
	if !ok {
		return protocol.Position{}, fmt.Errorf("line %d is past the end of %s", a.Line, a.FilePath)
	}
	col := 0 // 0-based, in characters
	switch {
	case a.Symbol != "":
		c, found := findSymbol(line, a.Symbol, max(a.Column-1, 0))
		if !found {
			return protocol.Position{}, fmt.Errorf("%q does not occur on line %d of %s: %q", a.Symbol, a.Line, a.FilePath, strings.TrimSpace(line))
		}
		col = c
	case a.Column > 0:
		col = a.Column - 1
	default:
		col = utf8.RuneCountInString(line) - utf8.RuneCountInString(strings.TrimLeftFunc(line, unicode.IsSpace))
	}
	//nolint:gosec // line numbers fit
	return protocol.Position{Line: uint32(a.Line - 1), Character: utf16Column(line, col)}, nil
}

// findSymbol returns the character column of the first whole-word
// occurrence of sym in line at or after column from, else the first
// anywhere on the line.
func findSymbol(line, sym string, from int) (int, bool) {
	first := -1
	for i := 0; ; {
		j := strings.Index(line[i:], sym)
		if j < 0 {
			break
		}
		at := i + j
		i = at + len(sym)
		if !wordAt(line, at, at+len(sym)) {
			continue
		}
		col := utf8.RuneCountInString(line[:at])
		if col >= from {
			return col, true
		}
		if first < 0 {
			first = col
		}
	}
	return first, first >= 0
}

// wordAt reports whether line[start:end] is not part of a longer
// identifier.
func wordAt(line string, start, end int) bool {
	if r, _ := utf8.DecodeLastRuneInString(line[:start]); start > 0 && isIdent(r) {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(line[end:]); end < len(line) && isIdent(r) {
		return false
	}
	return true
}

func isIdent(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
