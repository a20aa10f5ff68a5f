package diffcard

import "testing"

// FuzzHunks checks, for any two texts, that Apply reproduces after from
// Unified, and that EditHunks equals Hunks for two edits derived from
// them: the single replacement of the bytes between their common prefix
// and suffix, and a replace_all of before's first bytes by after's.
func FuzzHunks(f *testing.F) {
	f.Add("", "")
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("x", "y")
	f.Add("a\r\nb\r\n", "a\r\nb")
	f.Add("a\na\na\n", "a\na\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		u, err := Unified("a/f", "b/f", before, after)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Apply(before, u)
		if err != nil {
			t.Fatalf("Apply: %v\n%s", err, u)
		}
		if got != after {
			t.Fatalf("Apply(Unified) = %q, want %q\n%s", got, after, u)
		}

		p := 0
		for p < min(len(before), len(after)) && before[p] == after[p] {
			p++
		}
		s := 0
		for s < min(len(before), len(after))-p && before[len(before)-1-s] == after[len(after)-1-s] {
			s++
		}
		single := []Site{{Offset: p, OldLen: len(before) - s - p, New: after[p : len(after)-s]}}
		checkEdit(t, before, single)

		if len(before) > 0 {
			old, neu := before[:min(2, len(before))], after[:min(3, len(after))]
			checkEdit(t, before, sitesOf(before, old, neu, true))
		}
	})
}
