package presentation_test

import (
	"encoding/json"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
)

func TestContentRoundTrip(t *testing.T) {
	blocks := []presentation.ContentBlock{
		presentation.Text("hello"),
		presentation.ImageBlock{MimeType: "image/png", Data: "iVBORw0KGgo="},
		presentation.UnknownBlock{Type: "audio", JSON: `{"type":"audio","data":"AA=="}`},
	}
	data, err := json.Marshal(blocks)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"text","text":"hello"},{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="},{"type":"audio","data":"AA=="}]`
	if string(data) != want {
		t.Fatalf("marshal = %s\nwant      %s", data, want)
	}
	back, err := presentation.DecodeContent(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 3 || back[0] != blocks[0] || back[1] != blocks[1] || back[2] != blocks[2] {
		t.Errorf("round trip = %#v", back)
	}
}

func TestDecodeContentErrors(t *testing.T) {
	for _, in := range []string{`{}`, `[{"text":"no type"}]`, `[1]`, `[{"type":7}]`} {
		if _, err := presentation.DecodeContent([]byte(in)); err == nil {
			t.Errorf("DecodeContent(%s) succeeded", in)
		}
	}
	if _, err := json.Marshal(presentation.UnknownBlock{Type: "x", JSON: "{"}); err == nil {
		t.Errorf("an UnknownBlock with invalid JSON marshalled")
	}
}

func TestJoinText(t *testing.T) {
	tests := []struct {
		name   string
		blocks []presentation.ContentBlock
		want   string
	}{
		{"empty", nil, ""},
		{"text", []presentation.ContentBlock{presentation.Text("a"), presentation.Text("b")}, "a\nb"},
		{"other blocks are named", []presentation.ContentBlock{presentation.Text("a"), presentation.ImageBlock{}}, "a\n[image content]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := presentation.JoinText(tt.blocks); got != tt.want {
				t.Errorf("JoinText = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestKindOrOther(t *testing.T) {
	tests := map[presentation.ToolCallKind]presentation.ToolCallKind{
		"":                       presentation.KindOther,
		"ponder":                 presentation.KindOther,
		presentation.KindThink:   presentation.KindThink,
		presentation.KindRead:    presentation.KindRead,
		presentation.KindExecute: presentation.KindExecute,
	}
	for in, want := range tests {
		if got := in.OrOther(); got != want {
			t.Errorf("%q.OrOther() = %q, want %q", in, got, want)
		}
	}
}

func TestDiffs(t *testing.T) {
	created := presentation.NewFileDiff("a.txt", "new")
	if created.OldText != nil || created.Old() != "" {
		t.Errorf("NewFileDiff has old text")
	}
	if d := presentation.ReplaceDiff("a.txt", "", "x"); d.OldText != nil {
		t.Errorf("ReplaceDiff with empty old text is not an insertion")
	}
	d := presentation.ReplaceDiff("a.txt", "old", "new")
	clones := presentation.CloneDiffs([]presentation.FileDiff{d})
	*clones[0].OldText = "changed"
	if d.Old() != "old" {
		t.Errorf("CloneDiffs shares OldText")
	}
	if presentation.CloneDiffs(nil) != nil {
		t.Errorf("CloneDiffs(nil) != nil")
	}
}

func TestSingleText(t *testing.T) {
	if s, ok := (presentation.ToolResult{Content: []presentation.ContentBlock{presentation.Text("x")}}).SingleText(); !ok || s != "x" {
		t.Errorf("SingleText = %q, %v", s, ok)
	}
	if _, ok := (presentation.ToolResult{Content: []presentation.ContentBlock{presentation.ImageBlock{}}}).SingleText(); ok {
		t.Errorf("SingleText accepted an image")
	}
}

// cardName is the exhaustive switch every consumer of a card union writes:
// the default branch fails loudly, so a new card cannot be dropped silently.
func cardName(v presentation.ResultView) string {
	switch v.(type) {
	case presentation.GenericResultView, presentation.TerminalResultView, presentation.DiffResultView,
		presentation.ReadResultView, presentation.SearchMatchesView, presentation.SearchPathsView:
		return v.Card()
	default:
		panic("unhandled result card")
	}
}

func TestCards(t *testing.T) {
	calls := map[string]presentation.CallView{
		"generic":  presentation.GenericCallView{},
		"terminal": presentation.TerminalCallView{},
		"diff":     presentation.DiffCallView{},
	}
	for want, v := range calls {
		if v.Card() != want {
			t.Errorf("%T.Card() = %q", v, v.Card())
		}
	}
	results := []struct {
		view presentation.ResultView
		want string
	}{
		{presentation.GenericResultView{}, "generic"},
		{presentation.TerminalResultView{}, "terminal"},
		{presentation.DiffResultView{}, "diff"},
		{presentation.ReadResultView{}, "read"},
		{presentation.SearchMatchesView{}, "search"},
		{presentation.SearchPathsView{}, "search"},
	}
	for _, r := range results {
		if got := cardName(r.view); got != r.want {
			t.Errorf("%T card = %q, want %q", r.view, got, r.want)
		}
	}
}
