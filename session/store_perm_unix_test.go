//go:build unix

package session_test

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dsh-acp/dsh-acp/session"
)

// TestStoreFilesArePrivate: whatever the umask, every directory the store
// makes is 0700 and every file 0600. The umask is the process's, so this
// test must not run in parallel with others.
func TestStoreFilesArePrivate(t *testing.T) {
	for _, umask := range []int{0o000, 0o022, 0o077} {
		t.Run(fmt.Sprintf("umask %03o", umask), func(t *testing.T) {
			old := syscall.Umask(umask)
			defer syscall.Umask(old)

			ts := newTestStore(t, "secret")
			j := ts.create(t, session.Meta{ID: "a"})
			record(t, j, session.NewLog(nil), session.TurnStarted{}, session.TitleChanged{Title: "secret"})
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := ts.UpdateMeta("a", func(m *session.Meta) { m.Title = "x" }); err != nil {
				t.Fatal(err)
			}
			j2, _ := ts.open(t, "a")
			if err := j2.Close(); err != nil {
				t.Fatal(err)
			}

			seen := map[string]bool{}
			err := filepath.WalkDir(ts.dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				info, err := d.Info()
				if err != nil {
					return err
				}
				want := fs.FileMode(0o600)
				if d.IsDir() {
					want = fs.ModeDir | 0o700
				}
				if info.Mode() != want {
					t.Errorf("%s is %v, want %v", path, info.Mode(), want)
				}
				rel, _ := filepath.Rel(ts.dir, path)
				seen[rel] = true
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{".", "sessions", "index.json", "index.lock", "sessions/a.jsonl", "sessions/a.lock"} {
				if !seen[name] {
					t.Errorf("the store has no %s (saw %v)", name, seen)
				}
			}
		})
	}
}
