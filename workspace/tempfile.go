package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// An atomic write goes through a temporary file beside its target, named
//
//	.<target name>.dsh-write-<digits>.tmp
//
// so that one left behind by a write that was killed can be told from
// every other file and removed by a later write into the same directory.
const (
	tempMarker = ".dsh-write-"
	tempSuffix = ".tmp"
	// tempStemMax bounds how much of the target's name the temporary
	// name repeats, so it stays within the file system's name limit.
	tempStemMax = 64
)

// When a leftover temporary file counts as stale. A live write holds a
// lock on its temporary file from just after creating it until after the
// rename; the kernel drops the lock when the writer dies. So a temporary
// file no one holds a lock on is a dead write's, once it is older than
// lockedWithin: the instant between creating the file and locking it is
// the only time a live write's file is unlocked. Where the file system has
// no locks, only age tells: unlockableAfter is far longer than any write.
// Removing a live write's file by mistake would make its rename fail, not
// corrupt its target.
const (
	lockedWithin    = 10 * time.Second
	unlockableAfter = time.Hour
)

// createTemp creates and locks the temporary file of a write to target.
// The lock is held until the file is closed; a file system without locks
// leaves the file unlocked, which only the age rule then protects.
func createTemp(target string) (*os.File, error) {
	f, err := os.CreateTemp(filepath.Dir(target), "."+tempStem(filepath.Base(target))+tempMarker+"*"+tempSuffix)
	if err != nil {
		return nil, err
	}
	lockTemp(f)
	return f, nil
}

// tempStem is the part of a target's name its temporary files repeat: at
// most tempStemMax bytes, cut at a character boundary.
func tempStem(name string) string {
	if len(name) <= tempStemMax {
		return name
	}
	cut := tempStemMax
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return name[:cut]
}

// isTempName reports whether name is one createTemp makes: a dot, a stem,
// the marker, the random digits os.CreateTemp puts in place of its "*",
// and the suffix.
func isTempName(name string) bool {
	if !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, tempSuffix) {
		return false
	}
	rest := strings.TrimSuffix(name, tempSuffix)
	i := strings.LastIndex(rest, tempMarker)
	if i < 1 {
		return false
	}
	digits := rest[i+len(tempMarker):]
	if digits == "" {
		return false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// removeStaleTemps removes the temporary files of dead writes in dir (see
// lockedWithin). It is best effort: what it cannot list, look at or lock
// stays.
func removeStaleTemps(dir string, now time.Time) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		if isTempName(name) {
			removeIfStale(filepath.Join(dir, name), now)
		}
	}
}

// removeIfStale removes the temporary file at path when it is stale.
func removeIfStale(path string, now time.Time) {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return
	}
	age := now.Sub(info.ModTime())
	if age < lockedWithin {
		return
	}
	f, err := os.OpenFile(path, os.O_RDONLY|safeOpenFlags|openNoFollow, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !os.SameFile(st, info) {
		return
	}
	switch tryLock(f) {
	case lockHeld:
		return // a live write
	case lockUnsupported:
		if age < unlockableAfter {
			return
		}
	}
	// Removed while this lock is held, so no write can take the file over
	// in between.
	os.Remove(path)
}

// lockResult is what trying a temporary file's lock found.
type lockResult int

const (
	lockTaken       lockResult = iota // no one held it: the write is dead
	lockHeld                          // a live write holds it
	lockUnsupported                   // the file system has no locks
)
