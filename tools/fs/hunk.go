package fs

import (
	"encoding/json"

	"github.com/dsh-acp/dsh-acp/diffcard"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// Hunk is one applied hunk of a change as its diff card shows it: the
// lines it replaced (with up to diffcard.Context lines of context on each
// side) and the lines that replaced them, each side joined with "\n"
// without a final line break. OldText is nil when the hunk only inserts.
type Hunk struct {
	Path    string  `json:"path"`
	OldText *string `json:"oldText"`
	NewText string  `json:"newText"`
}

// hunksOf converts diff cards to the value's hunks (never nil, so the JSON
// is an array).
func hunksOf(diffs []presentation.FileDiff) []Hunk {
	out := make([]Hunk, len(diffs))
	for i, d := range diffs {
		out[i] = Hunk{Path: d.Path, OldText: d.OldText, NewText: d.NewText}
	}
	return out
}

// diffMeta is the presentation meta {"diffs":[…]} of hunks.
func diffMeta(hunks []Hunk, checks string) json.RawMessage {
	diffs := make([]presentation.FileDiff, len(hunks))
	for i, h := range hunks {
		diffs[i] = presentation.FileDiff{Path: h.Path, OldText: h.OldText, NewText: h.NewText}
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
