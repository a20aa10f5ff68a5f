package bridge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/session"
)

// TestUndoReply: what the user reads after an /undo, for each outcome.
func TestUndoReply(t *testing.T) {
	files := func(paths ...string) []session.FileRestored {
		out := make([]session.FileRestored, len(paths))
		for i, p := range paths {
			out[i] = session.FileRestored{Path: p}
		}
		return out
	}
	many := make([]live.UndoConflict, undoListed+3)
	for i := range many {
		many[i] = live.UndoConflict{Path: fmt.Sprintf("/p/f%02d", i), Reason: "the end of the turn was not recorded"}
	}
	tests := []struct {
		name string
		in   live.Undone
		cwd  string
		want string
	}{
		{"nothing to undo", live.Undone{}, "", "Nothing to undo: no earlier turn changed a file."},
		{"nothing to undo, with a note", live.Undone{Note: "Git is not available."}, "",
			"Nothing to undo: no earlier turn changed a file.\n\nGit is not available."},
		{"a turn that changed no file", live.Undone{Turn: true}, "", "The last turn changed no file; nothing to revert."},
		{"one file reverted", live.Undone{Turn: true, Files: files("/p/a.txt")}, "",
			"Reverted 1 file the last turn changed:\n- /p/a.txt"},
		{"reverted and left", live.Undone{Turn: true, Files: files("/p/a.txt", "/p/b.txt"), Conflicts: []live.UndoConflict{
			{Path: "/p/c.txt", Reason: "it changed after the turn"},
			{Path: "/p/d.txt", Reason: "the turn deleted it, and something is there again"},
		}}, "",
			"Reverted 2 files the last turn changed:\n- /p/a.txt\n- /p/b.txt\n\n" +
				"Left as they are (nothing was overwritten or deleted):\n" +
				"- /p/c.txt: it changed after the turn\n- /p/d.txt: the turn deleted it, and something is there again"},
		{"only left", live.Undone{Turn: true, Conflicts: []live.UndoConflict{{Path: "/p/c.txt", Reason: "it changed after the turn"}}}, "",
			"Left as it is (nothing was overwritten or deleted):\n- /p/c.txt: it changed after the turn"},
		{"paths inside the working directory are relative", live.Undone{Turn: true, Files: files("/p/src/a.txt", "/elsewhere/b.txt"),
			Conflicts: []live.UndoConflict{{Path: "/p/c.txt", Reason: "it changed after the turn"}}}, "/p",
			"Reverted 2 files the last turn changed:\n- src/a.txt\n- /elsewhere/b.txt\n\n" +
				"Left as it is (nothing was overwritten or deleted):\n- c.txt: it changed after the turn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := undoReply(tt.in, tt.cwd); got != tt.want {
				t.Errorf("undoReply =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	t.Run("a long list is cut", func(t *testing.T) {
		got := undoReply(live.Undone{Turn: true, Conflicts: many, Note: "Listed."}, "")
		if lines := strings.Count(got, "\n- "); lines != undoListed+1 {
			t.Errorf("%d list lines, want %d and a count", lines, undoListed)
		}
		if !strings.Contains(got, "- and 3 more\n\nListed.") || strings.Contains(got, fmt.Sprintf("f%02d", undoListed)) {
			t.Errorf("undoReply = %s", got)
		}
	})
}
