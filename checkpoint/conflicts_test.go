package checkpoint_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/checkpoint"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// conflictCase is one turn, what happens after it, and what Undo must
// do: the files as they end up, the paths it reverts, the conflicts.
type conflictCase struct {
	name string
	// turn changes files between the turn's Push and its Finish; during
	// runs then too, standing for someone else (another session, the
	// user) acting while the turn runs.
	turn, during func(p *project)
	// wrote are the paths the turn changes, which the file tools would
	// remember without git.
	wrote []string
	// after changes files after the turn ended, before the undo.
	after     func(p *project)
	want      map[string]string // file -> content ("<absent>")
	reverted  []string          // the paths of Restored.Changes
	conflicts map[string]checkpoint.Reason
}

// conflictCases are the shared cases of the git and the fallback undo.
// The workspace starts with a.txt "a0\n", b.txt "b0\n" and g.txt
// "g0\n".
func conflictCases() []conflictCase {
	return []conflictCase{
		{
			name:     "the user edits a file the turn never touched",
			turn:     func(p *project) { p.write("a.txt", "a1\n") },
			wrote:    []string{"a.txt"},
			after:    func(p *project) { p.write("b.txt", "b by the user\n") },
			want:     map[string]string{"a.txt": "a0\n", "b.txt": "b by the user\n"},
			reverted: []string{"a.txt"},
		},
		{
			name:      "the user edits a file the turn changed",
			turn:      func(p *project) { p.write("a.txt", "a1\n") },
			wrote:     []string{"a.txt"},
			after:     func(p *project) { p.write("a.txt", "a by the user\n") },
			want:      map[string]string{"a.txt": "a by the user\n"},
			conflicts: map[string]checkpoint.Reason{"a.txt": checkpoint.ReasonChangedSince},
		},
		{
			name:     "the user creates a file after the turn",
			turn:     func(p *project) { p.write("a.txt", "a1\n") },
			wrote:    []string{"a.txt"},
			after:    func(p *project) { p.write("mine.txt", "the user's\n") },
			want:     map[string]string{"a.txt": "a0\n", "mine.txt": "the user's\n"},
			reverted: []string{"a.txt"},
		},
		{
			name:     "a file the turn created, untouched since",
			turn:     func(p *project) { p.write("dir/new.txt", "made by the turn\n") },
			wrote:    []string{"dir/new.txt"},
			want:     map[string]string{"dir/new.txt": "<absent>"},
			reverted: []string{"dir/new.txt"},
		},
		{
			name:      "a file the turn created, edited since",
			turn:      func(p *project) { p.write("new.txt", "made by the turn\n") },
			wrote:     []string{"new.txt"},
			after:     func(p *project) { p.write("new.txt", "made by the turn, kept by the user\n") },
			want:      map[string]string{"new.txt": "made by the turn, kept by the user\n"},
			conflicts: map[string]checkpoint.Reason{"new.txt": checkpoint.ReasonChangedSince},
		},
		{
			name:     "a file the turn deleted",
			turn:     func(p *project) { p.remove("g.txt") },
			wrote:    []string{"g.txt"},
			want:     map[string]string{"g.txt": "g0\n"},
			reverted: []string{"g.txt"},
		},
		{
			name:      "a file the turn deleted and the user made again",
			turn:      func(p *project) { p.remove("g.txt") },
			wrote:     []string{"g.txt"},
			after:     func(p *project) { p.write("g.txt", "the user's new g\n") },
			want:      map[string]string{"g.txt": "the user's new g\n"},
			conflicts: map[string]checkpoint.Reason{"g.txt": checkpoint.ReasonRecreated},
		},
		{
			name:      "a file the turn changed, removed since",
			turn:      func(p *project) { p.write("a.txt", "a1\n") },
			wrote:     []string{"a.txt"},
			after:     func(p *project) { p.remove("a.txt") },
			want:      map[string]string{"a.txt": "<absent>"},
			conflicts: map[string]checkpoint.Reason{"a.txt": checkpoint.ReasonRemovedSince},
		},
		{
			name:  "a file the user put back by hand",
			turn:  func(p *project) { p.write("a.txt", "a1\n") },
			wrote: []string{"a.txt"},
			after: func(p *project) { p.write("a.txt", "a0\n") },
			want:  map[string]string{"a.txt": "a0\n"},
		},
		{
			name:      "the user makes a file the turn changed executable",
			turn:      func(p *project) { p.write("a.txt", "a1\n") },
			wrote:     []string{"a.txt"},
			after:     func(p *project) { os.Chmod(p.path("a.txt"), 0o755) },
			want:      map[string]string{"a.txt": "a1\n"},
			conflicts: map[string]checkpoint.Reason{"a.txt": checkpoint.ReasonChangedSince},
		},
		{
			name:     "someone creates a file while the turn runs",
			turn:     func(p *project) { p.write("a.txt", "a1\n") },
			wrote:    []string{"a.txt"},
			during:   func(p *project) { p.write("transcript.jsonl", "{}\n") },
			after:    func(p *project) { p.write("transcript.jsonl", "{}\n{}\n") },
			want:     map[string]string{"a.txt": "a0\n", "transcript.jsonl": "{}\n{}\n"},
			reverted: []string{"a.txt"},
			conflicts: map[string]checkpoint.Reason{
				"transcript.jsonl": checkpoint.ReasonChangedSince,
			},
		},
	}
}

// setUpConflictCase writes the files every case starts with.
func setUpConflictCase(p *project) {
	p.write("a.txt", "a0\n")
	p.write("b.txt", "b0\n")
	p.write("g.txt", "g0\n")
}

// checkUndo compares what Undo did with what the case wants.
func checkUndo(t *testing.T, p *project, tt conflictCase, restored checkpoint.Restored) {
	t.Helper()
	for rel, want := range tt.want {
		if got := p.read(rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	var reverted []string
	for _, c := range restored.Changes {
		reverted = append(reverted, rel(p, c.Path))
	}
	if !slices.Equal(reverted, tt.reverted) {
		t.Errorf("reverted %q, want %q", reverted, tt.reverted)
	}
	conflicts := map[string]checkpoint.Reason{}
	for _, c := range restored.Conflicts {
		conflicts[rel(p, c.Path)] = c.Reason
	}
	if !maps.Equal(conflicts, tt.conflicts) && (len(conflicts) > 0 || len(tt.conflicts) > 0) {
		t.Errorf("conflicts %q, want %q", conflicts, tt.conflicts)
	}
}

// rel is path relative to the project's root, slash-separated.
func rel(p *project, path string) string {
	r, _ := filepath.Rel(p.root, path)
	return filepath.ToSlash(r)
}

// TestUndoOnlyWhatTheTurnLeft: Undo reverts a path the turn changed only
// while it is what the turn left; anything changed since, by anyone, is
// left as it is and listed as a conflict, and nothing the turn did not
// change is touched.
func TestUndoOnlyWhatTheTurnLeft(t *testing.T) {
	needGit(t)
	for _, tt := range conflictCases() {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t)
			setUpConflictCase(p)
			c := p.open(checkpoint.Options{})
			if _, err := c.Push(ctx(t), "turn"); err != nil {
				t.Fatal(err)
			}
			tt.turn(p)
			if tt.during != nil {
				tt.during(p)
			}
			finish(t, c)
			if tt.after != nil {
				tt.after(p)
			}
			restored, err := c.Undo(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			checkUndo(t, p, tt, restored)
		})
	}
}

// TestPreImagesUndoOnlyWhatTheTurnLeft: the same rules without git, for
// what the file tools wrote.
func TestPreImagesUndoOnlyWhatTheTurnLeft(t *testing.T) {
	for _, tt := range conflictCases() {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t)
			setUpConflictCase(p)
			pre := checkpoint.NewPreImages(workspace.Local{}, checkpoint.PreImagesOptions{})
			if _, err := pre.Push(ctx(t), "turn"); err != nil {
				t.Fatal(err)
			}
			// The file tools remember each file before they write it.
			for _, path := range tt.wrote {
				if err := pre.Remember(ctx(t), p.path(path)); err != nil {
					t.Fatal(err)
				}
			}
			tt.turn(p)
			if tt.during != nil {
				tt.during(p)
			}
			finish(t, pre)
			if tt.after != nil {
				tt.after(p)
			}
			restored, err := pre.Undo(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if tt.during != nil {
				// Without git only the file tools' paths are known: what
				// others wrote is never the turn's, so it is no conflict.
				tt.conflicts = nil
			}
			checkUndo(t, p, tt, restored)
		})
	}
}
