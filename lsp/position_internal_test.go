package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

func TestUTF16Columns(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		chars int    // a column counted in characters
		units uint32 // the same column in UTF-16 code units
	}{
		{"ascii", "abc", 2, 2},
		{"two-byte letters", "héllo", 2, 2},
		{"astral plane takes a surrogate pair", "a😀b", 2, 3},
		{"after two emoji", "😀😀x", 2, 4},
		{"start", "😀", 0, 0},
		{"end of line", "a😀", 2, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := utf16Column(tt.line, tt.chars); got != tt.units {
				t.Errorf("utf16Column(%q, %d) = %d, want %d", tt.line, tt.chars, got, tt.units)
			}
			if got := charColumn(tt.line, tt.units); got != tt.chars {
				t.Errorf("charColumn(%q, %d) = %d, want %d", tt.line, tt.units, got, tt.chars)
			}
		})
	}
	if got := utf16Column("ab", 9); got != 2 {
		t.Errorf("a column past the end is clamped: got %d, want 2", got)
	}
	if got := charColumn("😀x", 1); got != 0 {
		t.Errorf("an offset inside a surrogate pair is clamped: got %d, want 0", got)
	}
}

func TestPositionArgs(t *testing.T) {
	text := "package p\n\n\tx := émoji😀(x, y)\r\nfunc f() {}\n"
	tests := []struct {
		name string
		args PositionArgs
		want protocol.Position
		err  bool
	}{
		{"symbol after an astral character", PositionArgs{Line: 3, Symbol: "x", Column: 3}, protocol.Position{Line: 2, Character: 14}, false},
		{"first whole-word occurrence", PositionArgs{Line: 3, Symbol: "x"}, protocol.Position{Line: 2, Character: 1}, false},
		{"not inside a longer word", PositionArgs{Line: 3, Symbol: "moji"}, protocol.Position{}, true},
		{"column in characters after an astral character", PositionArgs{Line: 3, Column: 13}, protocol.Position{Line: 2, Character: 13}, false},
		{"first non-blank by default", PositionArgs{Line: 4}, protocol.Position{Line: 3, Character: 0}, false},
		{"line past the end", PositionArgs{Line: 9}, protocol.Position{}, true},
		{"line zero", PositionArgs{Line: 0}, protocol.Position{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.args.position(text)
			if (err != nil) != tt.err || (!tt.err && got != tt.want) {
				t.Errorf("position = %+v, %v; want %+v (error %v)", got, err, tt.want, tt.err)
			}
		})
	}
}

func TestNewErrorsIgnoresMovedOnes(t *testing.T) {
	diag := func(line uint32, msg string) protocol.Diagnostic {
		return protocol.Diagnostic{Range: protocol.Range{Start: protocol.Position{Line: line}}, Message: protocol.String(msg), Severity: protocol.DiagnosticSeverityError}
	}
	before := []protocol.Diagnostic{diag(3, "undefined: a"), diag(5, "undefined: b")}
	after := []protocol.Diagnostic{diag(4, "undefined: a"), diag(6, "undefined: b"), diag(7, "undefined: b"), diag(1, "undefined: c")}
	got := newErrors(before, after)
	if len(got) != 2 || messageOf(got[0]) != "undefined: b" || got[0].Range.Start.Line != 7 || messageOf(got[1]) != "undefined: c" {
		t.Fatalf("newErrors = %+v, want the second b and c", got)
	}
}
