package diffcard

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
)

func TestFromMeta(t *testing.T) {
	tests := []struct {
		name   string
		meta   string
		want   []presentation.FileDiff
		wantOK bool
	}{
		{"F8 well-formed", `{"diffs":[{"path":"a.txt","oldText":"a","newText":"b"}]}`,
			[]presentation.FileDiff{{Path: "a.txt", OldText: ptr("a"), NewText: "b"}}, true},
		{"F8 several entries and extra members", ` {"x":1,"diffs":[{"path":"a","oldText":"","newText":"","more":true},{"path":"b","oldText":null,"newText":"n"}]}`,
			[]presentation.FileDiff{{Path: "a", OldText: ptr(""), NewText: ""}, {Path: "b", NewText: "n"}}, true},
		{"F9 oldText null", `{"diffs":[{"path":"a.txt","oldText":null,"newText":"fresh\n"}]}`,
			[]presentation.FileDiff{{Path: "a.txt", NewText: "fresh\n"}}, true},
		{"F22 edit meta", `{"diffs":[{"path":"a.txt","oldText":"a\nb\nc\nOLD\nd\ne\nf\n","newText":"a\nb\nc\nNEW\nd\ne\nf\n","line":4}]}`,
			[]presentation.FileDiff{{Path: "a.txt", OldText: ptr("a\nb\nc\nOLD\nd\ne\nf\n"), NewText: "a\nb\nc\nNEW\nd\ne\nf\n", Line: 4}}, true},
		{"meta written before lines were recorded", `{"diffs":[{"path":"a.txt","oldText":"a\nb","newText":"a\nc"}]}`,
			[]presentation.FileDiff{{Path: "a.txt", OldText: ptr("a\nb"), NewText: "a\nc"}}, true},
		{"a line that is not a positive integer is ignored", `{"diffs":[{"path":"a","oldText":null,"newText":"","line":0},{"path":"b","oldText":null,"newText":"","line":-2},{"path":"c","oldText":null,"newText":"","line":1.5},{"path":"d","oldText":null,"newText":"","line":"3"},{"path":"e","oldText":null,"newText":"","line":null}]}`,
			[]presentation.FileDiff{{Path: "a"}, {Path: "b"}, {Path: "c"}, {Path: "d"}, {Path: "e"}}, true},
		{"F10 undefined (empty text)", ``, nil, false},
		{"F10 null", `null`, nil, false},
		{"F10 non-object", `"diffs"`, nil, false},
		{"F10 number", `42`, nil, false},
		{"F10 array", `[{"diffs":[{"path":"a","oldText":null,"newText":""}]}]`, nil, false},
		{"F10 invalid JSON", `{"diffs":[`, nil, false},
		{"F11 missing diffs", `{}`, nil, false},
		{"F11 empty diffs", `{"diffs":[]}`, nil, false},
		{"F11 non-array diffs", `{"diffs":{"path":"a","oldText":null,"newText":""}}`, nil, false},
		{"F11 null diffs", `{"diffs":null}`, nil, false},
		{"F12 entry not an object", `{"diffs":["a"]}`, nil, false},
		{"F12 entry null", `{"diffs":[null]}`, nil, false},
		{"F12 missing path", `{"diffs":[{"oldText":null,"newText":""}]}`, nil, false},
		{"F12 numeric path", `{"diffs":[{"path":1,"oldText":null,"newText":""}]}`, nil, false},
		{"F12 missing oldText", `{"diffs":[{"path":"a","newText":""}]}`, nil, false},
		{"F12 numeric oldText", `{"diffs":[{"path":"a","oldText":3,"newText":""}]}`, nil, false},
		{"F12 null newText", `{"diffs":[{"path":"a","oldText":null,"newText":null}]}`, nil, false},
		{"F12 one bad entry among good ones", `{"diffs":[{"path":"a","oldText":null,"newText":""},{"path":"b"}]}`, nil, false},
		{"F12 keys are case sensitive", `{"diffs":[{"Path":"a","oldText":null,"newText":""}]}`, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := FromMeta(tc.meta)
			if ok != tc.wantOK || !equalDiffs(got, tc.want) {
				t.Errorf("FromMeta = %v, %v; want %v, %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestMeta(t *testing.T) {
	tests := []struct {
		name  string
		diffs []presentation.FileDiff
		want  string
	}{
		{"none", nil, `{"diffs":[]}`},
		{"F22 edit hunk", Hunks("a.txt", "a\nb\nc\nOLD\nd\ne\nf\n", "a\nb\nc\nNEW\nd\ne\nf\n"),
			`{"diffs":[{"path":"a.txt","oldText":"a\nb\nc\nOLD\nd\ne\nf\n","newText":"a\nb\nc\nNEW\nd\ne\nf\n","line":4}]}`},
		{"null oldText, no HTML escaping", []presentation.FileDiff{{Path: "<p>&", NewText: "x\r\n"}},
			`{"diffs":[{"path":"<p>&","oldText":null,"newText":"x\r\n"}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Meta(tc.diffs)
			if got != tc.want {
				t.Errorf("Meta = %s\nwant   %s", got, tc.want)
			}
			back, ok := FromMeta(got)
			if len(tc.diffs) > 0 && (!ok || !equalDiffs(back, tc.diffs)) {
				t.Errorf("FromMeta(Meta) = %v, %v", back, ok)
			}
		})
	}
}
