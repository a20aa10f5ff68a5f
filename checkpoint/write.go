package checkpoint

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/internal/atomicfile"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// Modes of what a restore creates, before the umask is left out: files
// and directories get them exactly (an existing file keeps its own).
const (
	newFileMode fs.FileMode = 0o644
	newExecMode fs.FileMode = 0o755
	newDirMode  fs.FileMode = 0o755
)

// putFile makes path hold want (a file, or a symbolic link), creating
// missing directories. A reason other than "" says why it was left alone.
func (c *Checkpoints) putFile(path string, want side, executable bool) (Reason, error) {
	dir := filepath.Dir(path)
	if reason := c.checkParents(dir); reason != "" {
		return reason, nil
	}
	perm := newFileMode
	if executable {
		perm = newExecMode
	}
	info, err := os.Lstat(path)
	switch {
	case err == nil && info.IsDir():
		// A directory is in the file's place: only an empty one goes.
		if os.Remove(path) != nil {
			return ReasonInTheWay, nil
		}
	case err == nil && info.Mode().IsRegular():
		perm = withExecBit(info.Mode().Perm(), executable)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("checkpoint: restore %s: %w", path, err)
	}
	if err := os.MkdirAll(dir, newDirMode); err != nil {
		return "", fmt.Errorf("checkpoint: restore %s: %w", path, err)
	}
	if want.link {
		err = linkAtomic(path, string(want.data))
	} else {
		err = writeAtomic(path, want.data, perm)
	}
	if err != nil {
		return "", fmt.Errorf("checkpoint: restore %s: %w", path, err)
	}
	return "", nil
}

// removeFile removes the file or symbolic link at path and then the
// directories that leaves empty, up to the root. A reason other than ""
// says why it was left alone.
func (c *Checkpoints) removeFile(path string) (Reason, error) {
	if reason := c.checkParents(filepath.Dir(path)); reason != "" {
		return reason, nil
	}
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("checkpoint: restore %s: %w", path, err)
	case info.IsDir():
		return ReasonInTheWay, nil
	}
	if err := os.Remove(path); err != nil {
		return "", fmt.Errorf("checkpoint: restore %s: %w", path, err)
	}
	for dir := filepath.Dir(path); dir != c.root && workspace.Under(c.root, dir); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			break // not empty (or not ours to remove)
		}
	}
	return "", nil
}

// checkParents says whether a file may be written in dir, a directory
// at or below the root: every part of it that exists must be a real
// directory, not a symbolic link (a restore never writes through one,
// which could lead outside the workspace) nor a file.
func (c *Checkpoints) checkParents(dir string) Reason {
	rel, ok := workspace.Relative(c.root, dir)
	if !ok {
		return ReasonInTheWay
	}
	if rel == "." {
		return ""
	}
	at := c.root
	for part := range strings.SplitSeq(rel, string(filepath.Separator)) {
		at = filepath.Join(at, part)
		info, err := os.Lstat(at)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "" // created below
		case err != nil:
			return ReasonInTheWay
		case info.Mode()&fs.ModeSymlink != 0:
			return ReasonThroughLink
		case !info.IsDir():
			return ReasonInTheWay
		}
	}
	return ""
}

// withExecBit returns perm with the executable bits set for whoever may
// read (executable) or cleared (not).
func withExecBit(perm fs.FileMode, executable bool) fs.FileMode {
	if !executable {
		return perm &^ 0o111
	}
	if perm&0o111 != 0 {
		return perm
	}
	return perm | (perm&0o444)>>2
}

// tempStemMax bounds how much of a file's name its temporary file's name
// repeats, so that it stays within the file system's limit.
const tempStemMax = 64

// tempName returns a name for a temporary file beside path, one the
// shadow repository ignores.
func tempName(path string) string {
	stem := filepath.Base(path)
	if len(stem) > tempStemMax {
		cut := tempStemMax
		for cut > 0 && !utf8.RuneStart(stem[cut]) {
			cut--
		}
		stem = stem[:cut]
	}
	return filepath.Join(filepath.Dir(path), "."+stem+".dsh-restore-"+rand.Text()+".tmp")
}

// writeAtomic replaces path by a file holding data with mode perm: a
// temporary file beside it, synced, then renamed over it, so path is
// either wholly old or wholly new. A symbolic link at path is replaced,
// not followed.
func writeAtomic(path string, data []byte, perm fs.FileMode) (err error) {
	tmp, err := os.OpenFile(tempName(path), os.O_WRONLY|os.O_CREATE|os.O_EXCL, filePerm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return atomicfile.Rename(tmp.Name(), path)
}

// linkAtomic replaces path by a symbolic link to target.
func linkAtomic(path, target string) error {
	tmp := tempName(path)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := atomicfile.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
