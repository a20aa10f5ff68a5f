package command

import (
	"strings"
	"testing"
)

func TestCheckSedScript(t *testing.T) {
	tests := []struct {
		script string
		err    string // "" when the script only reads and prints
	}{
		{"p", ""},
		{"10,20p", ""},
		{"$!N;s/\\n/ /", ""},
		{":a;N;$!ba;s/\\n/ /g", ""},
		{"/start/,/end/{/x/d;p}", ""},
		{"\\,foo,p", ""},
		{"0~3d", ""},
		{"/x/,+2d", ""},
		{"s|a|b|gI", ""},
		{"s/[/]/x/", "bracket expression"},
		{"s/[]a/]/x/", "bracket expression"},
		{"s/[[:space:]]*$//", ""},
		{"y/abc/xyz/", ""},
		{"1i\\\nheader\\\nw /tmp/x", ""},
		{"1i\\\nheader\nw /tmp/x", "w command"},
		{"a hello; w /tmp/x", ""},
		{"r /etc/hosts", ""},
		{"# w /tmp/x\np", ""},
		{"w /tmp/x", "w command"},
		{"/x/W /tmp/x", "w command"},
		{"1e id", "e command"},
		{"s/a/b/e", "s///e"},
		{"s/a/b/gw /tmp/x", "s///w"},
		{"s/a/b/ w x", "extra characters"},
		{"p x", "extra characters"},
		{"k", "not one this list knows"},
		{"s/a/b", "not closed"},
	}
	for _, tt := range tests {
		err := checkSedScript(tt.script)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("checkSedScript(%q) = %v, want nil", tt.script, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("checkSedScript(%q) = %v, want an error with %q", tt.script, err, tt.err)
		}
	}
}

// TestSedDialects checks that a line is judged as GNU and BSD sed read it:
// BSD sed takes -i's suffix as the next word, so its script is another.
func TestSedDialects(t *testing.T) {
	simple := func(words ...string) Simple {
		s := Simple{Words: words}
		for range words {
			s.Literal = append(s.Literal, true)
		}
		return s
	}
	line := simple("sed", "-i", "s/a/b/", "w /tmp/x")
	if ok, reason := sedLineReadOnly(parseSed(line, false)); !ok {
		t.Errorf("GNU reading of %q: not read-only (%s), want read-only", line.Words, reason)
	}
	if ok, _ := sedLineReadOnly(parseSed(line, true)); ok {
		t.Errorf("BSD reading of %q: read-only, want not (its script is %q)", line.Words, "w /tmp/x")
	}
	gnu, bsd := parseSed(line, false), parseSed(line, true)
	if !gnu.inPlace || len(gnu.files) != 1 || line.Words[gnu.files[0]] != "w /tmp/x" {
		t.Errorf("GNU reading: in place %v, files %v", gnu.inPlace, gnu.files)
	}
	if !bsd.inPlace || len(bsd.files) != 0 || strings.Join(bsd.scripts, ",") != "w /tmp/x" {
		t.Errorf("BSD reading: in place %v, scripts %q, files %v", bsd.inPlace, bsd.scripts, bsd.files)
	}
	bsdStyle := simple("sed", "-i", "", "s/a/b/", "f.go")
	for _, dialect := range []bool{false, true} {
		if ok, reason := sedLineReadOnly(parseSed(bsdStyle, dialect)); !ok {
			t.Errorf("%q (bsd %v): not read-only (%s)", bsdStyle.Words, dialect, reason)
		}
	}
	if ok, _ := sedLineReadOnly(parseSed(simple("sed", "--quiet", "p", "f"), true)); ok {
		t.Error("BSD reading of a GNU long option: read-only, want refused")
	}
}
