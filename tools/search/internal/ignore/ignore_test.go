package ignore

import (
	"slices"
	"testing"
)

func TestRulesMatch(t *testing.T) {
	type probe struct {
		path  string
		isDir bool
		want  Match
	}
	cases := []struct {
		name   string
		rules  string
		probes []probe
	}{
		{"unanchored matches at any depth", "*.log\n", []probe{
			{"a.log", false, Ignore}, {"x/y/a.log", false, Ignore}, {"a.log.txt", false, None},
		}},
		{"negation, last match wins", "*.log\n!keep.log\n", []probe{
			{"keep.log", false, Whitelist}, {"d/keep.log", false, Whitelist}, {"drop.log", false, Ignore},
		}},
		{"negation before the pattern loses", "!keep.log\n*.log\n", []probe{{"keep.log", false, Ignore}}},
		{"directory only", "build/\n", []probe{
			{"build", true, Ignore}, {"build", false, None}, {"src/build", true, Ignore},
		}},
		{"leading slash anchors", "/top.txt\n", []probe{{"top.txt", false, Ignore}, {"d/top.txt", false, None}}},
		{"middle slash anchors", "doc/*.md\n", []probe{
			{"doc/a.md", false, Ignore}, {"x/doc/a.md", false, None}, {"doc/sub/a.md", false, None},
		}},
		{"leading **", "**/gen\n", []probe{{"gen", true, Ignore}, {"a/b/gen", false, Ignore}}},
		{"trailing ** matches inside only", "out/**\n", []probe{
			{"out", true, None}, {"out/a", false, Ignore}, {"out/a/b", false, Ignore},
		}},
		{"middle **", "a/**/b\n", []probe{
			{"a/b", false, Ignore}, {"a/x/y/b", false, Ignore}, {"x/a/b", false, None},
		}},
		{"** next to text is a star", "a**b\n", []probe{{"axxb", false, Ignore}, {"ax/xb", false, None}}},
		{"classes and ?", "f[0-3].txt\n[!a]?.go\n", []probe{
			{"f2.txt", false, Ignore}, {"f7.txt", false, None}, {"bc.go", false, Ignore}, {"ac.go", false, None},
		}},
		{"braces, as ripgrep", "*.{bak,orig}\n", []probe{{"a.bak", false, Ignore}, {"a.orig", false, Ignore}, {"a.txt", false, None}}},
		{"comments, blanks, escapes, trailing spaces", "# c\n\n\\#hash\n\\!bang\ntrail   \nsp\\ \n", []probe{
			{"# c", false, None}, {"#hash", false, Ignore}, {"!bang", false, Ignore}, {"trail", false, Ignore}, {"sp ", false, Ignore},
		}},
		{"CRLF lines", "*.tmp\r\n", []probe{{"a.tmp", false, Ignore}}},
		{"star does not cross slashes", "a/*\n", []probe{{"a/b", false, Ignore}, {"a/b/c", false, None}}},
		{"unicode ?", "?.txt\n", []probe{{"é.txt", false, Ignore}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Parse([]byte(tc.rules))
			for _, p := range tc.probes {
				if got := r.Match(p.path, p.isDir); got != p.want {
					t.Errorf("Match(%q, dir=%v) = %v, want %v", p.path, p.isDir, got, p.want)
				}
			}
		})
	}
}

func TestCompileSkipsNonPatterns(t *testing.T) {
	for _, line := range []string{"", "#x", "/", "!", "   ", "!/"} {
		if _, ok := Compile(line); ok {
			t.Errorf("Compile(%q) = ok", line)
		}
	}
	var nilRules *Rules
	if nilRules.Match("a", false) != None || nilRules.Len() != 0 {
		t.Error("nil rules matched")
	}
}

func TestExpandBraces(t *testing.T) {
	cases := map[string][]string{
		"*.{ts,tsx}":  {"*.ts", "*.tsx"},
		"{a,{b,c}}/x": {"a/x", "b/x", "c/x"},
		"{a,b}{1,2}":  {"a1", "a2", "b1", "b2"},
		"no{brace":    {"no{brace"},
		`\{a,b}`:      {`\{a,b}`},
	}
	for in, want := range cases {
		if got := expandBraces(in); !slices.Equal(got, want) {
			t.Errorf("expandBraces(%q) = %q, want %q", in, got, want)
		}
	}
}
