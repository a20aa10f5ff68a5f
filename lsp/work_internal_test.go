package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

// work follows a server's $/progress whatever order the notifications
// are handled in (they are handled concurrently): an end handled before
// its begin leaves the work ended.
func TestWorkFollowsProgress(t *testing.T) {
	type note struct {
		token protocol.ProgressToken
		value string
	}
	begin := `{"kind":"begin","title":"Setting up workspace","message":"Loading packages..."}`
	tests := []struct {
		name  string
		notes []note
		want  string
	}{
		{"nothing reported", nil, ""},
		{"begun", []note{{protocol.String("a"), begin}}, "Setting up workspace: Loading packages..."},
		{"reported", []note{{protocol.String("a"), begin}, {protocol.String("a"), `{"kind":"report","message":"3/7 packages","percentage":42}`}},
			"Setting up workspace: 3/7 packages (42%)"},
		{"ended", []note{{protocol.String("a"), begin}, {protocol.String("a"), `{"kind":"end"}`}}, ""},
		{"ended before it began", []note{{protocol.String("a"), `{"kind":"end"}`}, {protocol.String("a"), begin}}, ""},
		{"a report before its begin", []note{{protocol.Integer(7), `{"kind":"report","message":"indexing"}`}}, "indexing"},
		{"a number and a string are two tokens", []note{{protocol.Integer(1), begin}, {protocol.String("1"), `{"kind":"end"}`}},
			"Setting up workspace: Loading packages..."},
		{"two pieces of work", []note{{protocol.String("b"), `{"kind":"begin","title":"Indexing"}`}, {protocol.String("a"), begin}},
			"Indexing; Setting up workspace: Loading packages..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWork()
			for _, n := range tt.notes {
				if _, err := w.update(&protocol.ProgressParams{Token: n.token, Value: []byte(n.value)}); err != nil {
					t.Fatal(err)
				}
			}
			if got, _ := w.state(); got != tt.want {
				t.Errorf("work = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWorkRejectsWhatIsNotProgress(t *testing.T) {
	for _, value := range []string{`"text"`, `{"kind":"done"}`} {
		if _, err := newWork().update(&protocol.ProgressParams{Token: protocol.String("a"), Value: []byte(value)}); err == nil {
			t.Errorf("update(%s) = nil error", value)
		}
	}
}
