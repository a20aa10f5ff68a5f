package checkpoint

import "testing"

// TestRebasePattern: how a pattern of an ignore file above the root reads
// relative to the root (at "pkg/app/").
func TestRebasePattern(t *testing.T) {
	tests := []struct {
		line, at, want string
		ok             bool
	}{
		{"node_modules/", "pkg/app/", "node_modules/", true},
		{"*.log", "pkg/app/", "*.log", true},
		{"!keep.log", "pkg/app/", "!keep.log", true},
		{"**/dist", "pkg/app/", "**/dist", true},
		{"/pkg/app/dist/", "pkg/app/", "/dist/", true},
		{"pkg/app/build", "pkg/app/", "/build", true},
		{"!/pkg/app/keep", "pkg/app/", "!/keep", true},
		{"/pkg/app/", "pkg/app/", "", false}, // the root itself
		{"/pkg/other/", "pkg/app/", "", false},
		{"/build", "pkg/app/", "", false},
		{"pkg/*/dist", "pkg/app/", "", false},
		{"# comment", "pkg/app/", "", false},
		{"   ", "pkg/app/", "", false},
		{"", "pkg/app/", "", false},
		{"/build", "", "/build", true}, // the root's own info/exclude: as is
		{"a/b ", "", "a/b ", true},
	}
	for _, tt := range tests {
		got, ok := rebasePattern(tt.line, tt.at)
		if got != tt.want || ok != tt.ok {
			t.Errorf("rebasePattern(%q, %q) = %q, %v; want %q, %v", tt.line, tt.at, got, ok, tt.want, tt.ok)
		}
	}
}

// TestParseCommit: what is and is not a checkpoint's commit.
func TestParseCommit(t *testing.T) {
	const id = "0123456789abcdef0123456789abcdef01234567"
	good := "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" +
		"author dsh-acp <a@b> 1700000000 +0100\ncommitter dsh-acp <a@b> 1700000001 +0100\n\n" +
		"turn 1\n\n" + metaPrefix + `{"v":1,"skipped":[{"p":"big.bin","r":"larger than the size limit","s":5}]}` + "\n"
	rec, err := parseCommit(id, []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if rec.cp.Label != "turn 1" || rec.cp.Time.Unix() != 1700000001 || rec.tree != "4b825dc642cb6eb9a060e54bf8d69288fbee4904" ||
		len(rec.skipped) != 1 || rec.skipped[0] != (Skipped{Path: "big.bin", Reason: ReasonTooLarge, Size: 5}) {
		t.Errorf("parseCommit = %+v", rec)
	}
	for name, raw := range map[string]string{
		"no metadata": "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\nsomeone's commit\n",
		"bad json":    "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\nx\n\n" + metaPrefix + "{\n",
		"no tree":     "\n\nx\n\n" + metaPrefix + "{}\n",
		"no message":  "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n",
	} {
		if _, err := parseCommit(id, []byte(raw)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}
