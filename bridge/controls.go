package bridge

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/acp"
)

// escapeControls returns s with every character that could change how
// the editor draws the text around it spelled out visibly: C0 controls
// other than newline and tab, and DEL, as \xHH ("\x1b[2J" clears no
// screen); C1 controls (U+0080–U+009F) and the bidirectional embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069) as \uHHHH (a
// right-to-left override cannot make "rm -rf" read as something else).
// Bytes that are not UTF-8 are spelled \xHH too. s itself is returned when
// it holds none of these.
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, needsEscape) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case needsEscape(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case needsEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// needsEscape reports whether escapeControls spells r out.
func needsEscape(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r == 0x7f, 0x80 <= r && r <= 0x9f:
		return true
	case 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}

// escapeTitle returns u with its title, if it has one, through
// escapeControls.
func escapeTitle(u acp.Update) acp.Update {
	switch v := u.(type) {
	case acp.ToolCall:
		v.Title = escapeControls(v.Title)
		return v
	case acp.ToolCallUpdate:
		v.Title = escapeControls(v.Title)
		return v
	case acp.SessionInfoUpdate:
		v.Title = escapeControls(v.Title)
		return v
	case acp.SubagentUpdate:
		v.Title, v.Description = escapeControls(v.Title), escapeControls(v.Description)
		return v
	}
	return u
}
