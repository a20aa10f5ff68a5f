package bridge

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/session"
)

// TestRewindReply: what the user reads after a /rewind, for each outcome.
func TestRewindReply(t *testing.T) {
	tests := []struct {
		name string
		in   live.Rewound
		want string
	}{
		{"a turn that changed no file", live.Rewound{Dropped: true, Undone: live.Undone{Turn: true}, Prompt: "explain main.go"},
			"Dropped the last turn (\"explain main.go\") from the conversation: the model no longer sees it.\nIt changed no file; nothing to revert."},
		{"files reverted and left", live.Rewound{Dropped: true, Undone: live.Undone{Turn: true,
			Files:     []session.FileRestored{{Path: "/p/src/a.txt"}},
			Conflicts: []live.UndoConflict{{Path: "/p/b.txt", Reason: "it changed after the turn"}},
			Note:      "Commands are not undone."}, Prompt: "fix it\nplease"},
			"Dropped the last turn (\"fix it\") from the conversation: the model no longer sees it.\n\n" +
				"Reverted 1 file the turn changed:\n- src/a.txt\n\n" +
				"Left as it is (nothing was overwritten or deleted):\n- b.txt: it changed after the turn\n\nCommands are not undone."},
		{"no checkpoint left, a prompt without text", live.Rewound{Dropped: true},
			"Dropped the last turn from the conversation: the model no longer sees it.\n" +
				"No checkpoint of it was left (an /undo reverted it already, or none was taken): no file was reverted."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rewindReply(tt.in, "/p"); got != tt.want {
				t.Errorf("rewindReply =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
