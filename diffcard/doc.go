// Package diffcard turns a file change into the diff cards an editor shows:
// one presentation.FileDiff per unified hunk, with Context (3) lines of
// context on each side. It also prints and applies unified diff text.
//
// A write tool knows the text before and after; an edit tool knows where
// it replaced, and gets the same cards without diffing the whole file:
//
//	// write: before/after → cards, attached to the result as meta
//	diffs := diffcard.Hunks("main.go", before, content)
//	meta := diffcard.Meta(diffs) // {"diffs":[{"path":…,"oldText":…,"newText":…}]}
//
//	// edit: the replacement sites → the same cards as Hunks(path, before, after)
//	i := strings.Index(before, oldString)
//	sites := []diffcard.Site{{Offset: i, OldLen: len(oldString), New: newString}}
//	after, _ := diffcard.ApplySites(before, sites)
//	diffs, _ = diffcard.EditHunks("main.go", before, sites)
//
//	// the presenter reads them back, defensively
//	if diffs, ok := diffcard.FromMeta(meta); ok {
//		_ = diffs // a diff card
//	}
//
//	// unified text for people and for patch(1), and a strict applier
//	u, _ := diffcard.Unified("a/main.go", "b/main.go", before, after)
//	same, err := diffcard.Apply(before, u) // same == after
//
// Each side of a card holds whole lines with their line breaks, as the file
// has them, and each card says on which line its first change is. Lines are
// split after "\n" only, so CRLF text and a missing final newline
// round-trip exactly. The line diff is github.com/sergi/go-diff in line mode
// with DiffTimeout 0 (deterministic); a guard (GuardBudget, GuardMaxLines)
// turns a pathological rewrite into one whole-file diff instead of spending
// unbounded time. Unified text is printed and parsed with
// github.com/sourcegraph/go-diff.
package diffcard
