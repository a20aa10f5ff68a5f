//go:build unix

package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWriteRemovesStaleTemps: a write removes the temporary files killed
// writes left in its directory, and nothing else: not a live write's (it
// holds its lock), not one just created, not a file that only looks like
// ours (issue 7 item 11).
func TestWriteRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "a.txt")
	old := time.Now().Add(-2 * time.Minute)
	age := func(path string) {
		t.Helper()
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	// leave creates a temporary file as a write does and closes it, as
	// the kernel does when the writer is killed.
	leave := func(target string) string {
		t.Helper()
		f, err := createTemp(target)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("half a wri"))
		f.Close()
		return f.Name()
	}
	killed := leave(target)
	age(killed)
	otherTarget := leave(filepath.Join(dir, "b.txt"))
	age(otherTarget)
	// "Just created" must hold when the write looks, however long this
	// machine stalls before it: the file is dated an hour ahead, which
	// the age rule treats as just created (TestRemoveIfStaleByAge pins
	// the rule itself against a fixed clock).
	fresh := leave(target)
	ahead := time.Now().Add(time.Hour)
	if err := os.Chtimes(fresh, ahead, ahead); err != nil {
		t.Fatal(err)
	}
	live, err := createTemp(target) // a write still running: it holds the lock
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	age(live.Name())
	lookalikes := []string{
		filepath.Join(dir, ".a.txt.dsh-write-12x.tmp"),
		filepath.Join(dir, ".a.txt.dsh-write-.tmp"),
		filepath.Join(dir, "a.txt.dsh-write-123.tmp"),
		filepath.Join(dir, ".a.txt.dsh-123456"),
	}
	for _, p := range lookalikes {
		if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		age(p)
	}

	if err := (Local{}).WriteFile(context.Background(), target, []byte("new")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{killed, otherTarget} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("the stale %s is still there (%v)", filepath.Base(p), err)
		}
	}
	for _, p := range append([]string{fresh, live.Name()}, lookalikes...) {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Errorf("target = %q", data)
	}
	// The write's own temporary file is gone: only the ones above remain.
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := 2 + len(lookalikes) + 1; len(names) != want {
		t.Errorf("the directory holds %s, want %d entries", strings.Join(names, ", "), want)
	}
}

// TestRemoveIfStaleByAge: the age rule against a fixed clock. A
// temporary file no one holds a lock on is a dead write's only once it is
// lockedWithin old; younger (or dated ahead, as a skewed clock leaves it)
// it may be a live write's between creating and locking it. A locked one
// is a live write's at any age.
func TestRemoveIfStaleByAge(t *testing.T) {
	created := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		age     time.Duration // the time of the check, after created
		locked  bool
		removed bool
	}{
		{"just created", 0, false, false},
		{"just short of lockedWithin", lockedWithin - time.Nanosecond, false, false},
		{"dated ahead of the clock", -time.Hour, false, false},
		{"lockedWithin old and unlocked", lockedWithin, false, true},
		{"old and unlocked", 2 * time.Minute, false, true},
		{"old and locked", 2 * unlockableAfter, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := createTemp(filepath.Join(t.TempDir(), "a.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if tt.locked {
				defer f.Close()
			} else {
				f.Close() // as the kernel does when the writer dies
			}
			if err := os.Chtimes(f.Name(), created, created); err != nil {
				t.Fatal(err)
			}
			removeIfStale(f.Name(), created.Add(tt.age))
			_, err = os.Lstat(f.Name())
			if gone := os.IsNotExist(err); gone != tt.removed {
				t.Errorf("removed = %v (%v), want %v", gone, err, tt.removed)
			}
		})
	}
}

// TestTempNames: the names createTemp makes are recognized, and a long
// target name is cut so the temporary name stays short.
func TestTempNames(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("é", 200) // 400 bytes: over any name limit
	for _, name := range []string{"a.txt", ".hidden", "x.dsh-write-1.tmp", long[:240]} {
		f, err := createTemp(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%.20s: %v", name, err)
		}
		f.Close()
		base := filepath.Base(f.Name())
		if !isTempName(base) || len(base) > tempStemMax+len(tempMarker)+len(tempSuffix)+12 {
			t.Errorf("%q: not recognized or too long", base)
		}
	}
}
