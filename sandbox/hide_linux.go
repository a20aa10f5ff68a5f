//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// scratchMount is where hide mounts the tmpfs its empty stand-ins come
// from: a directory every Linux has and no policy names, whose own mount
// is back in view once hide is done, or covered by the PID namespace's
// own /proc.
const scratchMount = "/proc"

// hide covers each existing denied path (Policy.DenyRead, Policy.Sockets), in the helper's own mount
// namespace, with an empty read-only stand-in: an empty directory over a
// directory, an empty file over a file. A command then cannot even list
// the names inside ~/.ssh, which Landlock's listing right on the
// ancestors would let it. The stand-ins come from one private tmpfs and
// carry no Landlock rule, so Landlock still refuses reading them: it stays
// the second layer. A Unix socket is covered by the empty file: connecting
// to it is refused. Paths that are not there are skipped. procFollows
// says a fresh /proc will be mounted over scratchMount: the tmpfs then
// stays beneath it, out of reach, and the unmount (a millisecond or two,
// most of hide's cost) is saved.
func hide(denied []string, procFollows bool) error {
	var dirs, files []string
	for _, path := range unique(denied) {
		info, err := os.Stat(path)
		if err != nil {
			continue
		}
		if info.IsDir() {
			dirs = append(dirs, path)
		} else {
			files = append(files, path)
		}
	}
	if len(dirs) == 0 && len(files) == 0 {
		return nil
	}
	if err := unix.Mount("tmpfs", scratchMount, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=0755,size=4k"); err != nil {
		return fmt.Errorf("hiding the credential locations: mounting a tmpfs: %w", err)
	}
	err := coverWithStandIns(dirs, files)
	if procFollows {
		return err
	}
	if detach := unix.Unmount(scratchMount, unix.MNT_DETACH); detach != nil && err == nil {
		err = fmt.Errorf("hiding the credential locations: %w", detach)
	}
	return err
}

// coverWithStandIns makes the stand-ins in the tmpfs at scratchMount,
// turns it read-only, and binds them over dirs and files.
func coverWithStandIns(dirs, files []string) error {
	emptyDir, emptyFile := filepath.Join(scratchMount, "dir"), filepath.Join(scratchMount, "file")
	if err := os.Mkdir(emptyDir, 0o555); err != nil {
		return fmt.Errorf("hiding the credential locations: %w", err)
	}
	if err := os.WriteFile(emptyFile, nil, 0o444); err != nil {
		return fmt.Errorf("hiding the credential locations: %w", err)
	}
	// Read-only for the whole file system, so every bind of it is too.
	if err := unix.Mount("", scratchMount, "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("hiding the credential locations: making the tmpfs read-only: %w", err)
	}
	var errs []error
	for _, d := range dirs {
		errs = append(errs, bindOver(emptyDir, d))
	}
	for _, f := range files {
		errs = append(errs, bindOver(emptyFile, f))
	}
	return errors.Join(errs...)
}

func bindOver(standIn, target string) error {
	if err := unix.Mount(standIn, target, "", unix.MS_BIND, ""); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // gone since it was looked at
		}
		return fmt.Errorf("hiding %s: %w", target, err)
	}
	return nil
}
