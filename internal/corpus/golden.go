package corpus

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// GoldenUpdates returns the session/update frames among frames, one per
// line, in order (but the announcement of the session's commands, which
// follows the session/new answer at no fixed place among a first turn's
// updates), runs of text chunks merged (mergeTextRuns) and a
// command's last live output folded into its final update
// (foldLiveOutput), with the layout's paths written as $WS, $OUTSIDE and
// $ROOT, the session id as $SID and a title's time as $TIME: the text a
// case's golden file holds.
func GoldenUpdates(l Layout, sessionID string, frames []Frame) []byte {
	// Longest first: the workspace and outside paths start with the root.
	r := strings.NewReplacer(l.Workspace, "$WS", l.Outside, "$OUTSIDE", l.Root, "$ROOT", `"`+sessionID+`"`, `"$SID"`)
	var updates [][]byte
	for _, f := range frames {
		if f.Method == "session/update" && !bytes.Contains(f.Line, []byte(`"available_commands_update"`)) {
			updates = append(updates, f.Line)
		}
	}
	var b bytes.Buffer
	for _, line := range foldLiveOutput(mergeTextRuns(updates)) {
		b.WriteString(updatedAt.ReplaceAllString(r.Replace(string(line)), `"updatedAt":"$$TIME"`))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// updatedAt matches the time a session_info_update carries, which
// differs from run to run: goldens hold $TIME instead.
var updatedAt = regexp.MustCompile(`"updatedAt":"[^"]*"`)

// CheckGolden compares got with the case's golden file; with update set it
// rewrites the file instead.
func (c Case) CheckGolden(dir string, got []byte, update bool) error {
	if c.Golden == "" {
		return nil
	}
	path := filepath.Join(dir, filepath.FromSlash(c.Golden))
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			return fmt.Errorf("update golden %s: %w", c.Golden, err)
		}
		return nil
	}
	want, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("golden %s: %w (write it with -update)", c.Golden, err)
	}
	if bytes.Equal(got, want) {
		return nil
	}
	return fmt.Errorf("golden %s differs:\n%s", c.Golden, FirstDifference(string(want), string(got)))
}

// FirstDifference describes the first line where two golden texts, want
// and got, part.
func FirstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d\nwant: %s\n got: %s", i+1, wl, gl)
		}
	}
	return "(same lines, different bytes)"
}
