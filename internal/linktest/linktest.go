// Package linktest makes the symbolic links tests need, and skips the
// test where this system cannot make them at all: Windows without the
// privilege to create links, or Wine, whose CreateSymbolicLink reports
// success and makes nothing. Where links work (every Unix system), a link
// that cannot be made fails the test as before.
//
//	linktest.Symlink(t, outside, filepath.Join(ws, "escape"))
package linktest

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Symlink makes link point to target. When that fails, or leaves no link
// behind, the test is skipped if the system cannot make links at all
// (Works), and fails otherwise.
func Symlink(t testing.TB, target, link string) {
	t.Helper()
	err := os.Symlink(target, link)
	if err == nil && isLink(link) {
		return
	}
	if !Works(t) {
		t.Skipf("this system makes no symbolic links (%v): the test needs one", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Fatalf("os.Symlink(%q, %q) left no link", target, link)
}

// Works reports whether a symbolic link made in a fresh temporary
// directory is there afterwards.
func Works(t testing.TB) bool {
	t.Helper()
	dir := t.TempDir()
	link := filepath.Join(dir, "probe")
	return os.Symlink("target", link) == nil && isLink(link)
}

func isLink(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}
