package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dsh-acp/dsh-acp/internal/atomicfile"
)

// writePrivate replaces the file at path with data, atomically: a
// temporary file in the same directory, private to the user (0600; on
// Windows the directory's access list decides), written, synced and
// renamed over path; the directory is synced after (atomicfile.SyncDir).
// A reader sees the old contents or the new, never a part.
func writePrivate(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := atomicfile.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if err := atomicfile.SyncDir(dir); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}
