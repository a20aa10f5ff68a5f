package fs

import (
	"encoding/json"

	"github.com/dsh-acp/dsh-acp/diffcard"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// Hunk is one applied hunk of a change as its diff card shows it: the
// lines it replaced (with up to diffcard.Context lines of context on each
// side) and the lines that replaced them. Each side holds whole lines,
// each with its line break exactly as the file has it, so only a last
// line the file really ends without lacks one. OldText is nil when the
// hunk only inserts. Line is the 1-based line, in the file after the
// change, of the hunk's first changed line.
type Hunk struct {
	Path    string  `json:"path"`
	OldText *string `json:"oldText"`
	NewText string  `json:"newText"`
	Line    int     `json:"line,omitempty"`
}

// hunksOf converts diff cards to the value's hunks (never nil, so the JSON
// is an array).
func hunksOf(diffs []presentation.FileDiff) []Hunk {
	out := make([]Hunk, len(diffs))
	for i, d := range diffs {
		out[i] = Hunk{Path: d.Path, OldText: d.OldText, NewText: d.NewText, Line: d.Line}
	}
	return out
}

// changeCard is the approval card of a change: its hunks, located at the
// first changed line.
func changeCard(title, path string, diffs []presentation.FileDiff) presentation.DiffCallView {
	locations := firstChange(path, diffs)
	if locations == nil {
		locations = []presentation.FileLocation{{Path: path}}
	}
	return presentation.DiffCallView{Title: title, Diffs: diffs, Locations: locations}
}

// firstChange locates a change at its first changed line, in path as the
// model wrote it; nil when the hunks do not say where it is (none, or
// hunks recorded before lines were).
func firstChange(path string, diffs []presentation.FileDiff) []presentation.FileLocation {
	if len(diffs) == 0 || diffs[0].Line <= 0 {
		return nil
	}
	return []presentation.FileLocation{{Path: path, Line: diffs[0].Line}}
}

// diffMeta is the presentation meta {"diffs":[…]} of hunks.
func diffMeta(hunks []Hunk, checks string) json.RawMessage {
	diffs := make([]presentation.FileDiff, len(hunks))
	for i, h := range hunks {
		diffs[i] = presentation.FileDiff{Path: h.Path, OldText: h.OldText, NewText: h.NewText, Line: h.Line}
	}
	meta := diffcard.Meta(diffs)
	if checks == "" {
		return json.RawMessage(meta)
	}
	// The checks ride beside the diffs, for the card to show them.
	withChecks, err := json.Marshal(struct {
		Diffs  json.RawMessage `json:"diffs"`
		Checks string          `json:"checks"`
	}{json.RawMessage(meta[len(`{"diffs":`) : len(meta)-1]), checks})
	if err != nil {
		return json.RawMessage(meta)
	}
	return withChecks
}

// checksFromMeta reads the checks diffMeta put beside the diffs; "" when
// there are none.
func checksFromMeta(meta string) string {
	var m struct {
		Checks string `json:"checks"`
	}
	if json.Unmarshal([]byte(meta), &m) != nil {
		return ""
	}
	return m.Checks
}
