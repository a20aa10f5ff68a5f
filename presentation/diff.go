package presentation

// FileDiff is one reviewable change to a file: OldText replaced by NewText.
// OldText is nil for a new file, an overwrite with no prior text, or a pure
// insertion; NewText is empty for a pure deletion.
//
// A hunk of an applied change (package diffcard) holds whole lines, each
// with its line break exactly as the file has it, so a client that diffs
// the two sides sees a missing final newline only where the file lacks
// one; Line is then the 1-based line, in the file after the change, of the
// hunk's first changed line. A diff built from a tool's arguments (the
// text an edit was asked to replace) holds that text as given, and Line 0.
type FileDiff struct {
	Path    string
	OldText *string
	NewText string
	Line    int
}

// NewFileDiff returns the diff that creates path with text.
func NewFileDiff(path, text string) FileDiff {
	return FileDiff{Path: path, NewText: text}
}

// ReplaceDiff returns the diff that replaces oldText with newText in path.
// An empty oldText is recorded as nil (an insertion).
func ReplaceDiff(path, oldText, newText string) FileDiff {
	d := FileDiff{Path: path, NewText: newText}
	if oldText != "" {
		d.OldText = &oldText
	}
	return d
}

// Old returns OldText, or "" when it is nil.
func (d FileDiff) Old() string {
	if d.OldText == nil {
		return ""
	}
	return *d.OldText
}

// Clone returns a copy of d that shares no pointer with it.
func (d FileDiff) Clone() FileDiff {
	if d.OldText != nil {
		old := *d.OldText
		d.OldText = &old
	}
	return d
}

// CloneDiffs returns a deep copy of diffs (nil stays nil).
func CloneDiffs(diffs []FileDiff) []FileDiff {
	if diffs == nil {
		return nil
	}
	out := make([]FileDiff, len(diffs))
	for i, d := range diffs {
		out[i] = d.Clone()
	}
	return out
}
