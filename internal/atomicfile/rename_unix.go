//go:build !windows

package atomicfile

import "os"

// Rename renames from over to in one step.
func Rename(from, to string) error { return os.Rename(from, to) }

// SyncDir makes a rename in dir durable: it syncs the directory.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil // nothing to sync through; the rename stands
	}
	defer d.Close()
	return d.Sync()
}

// ReadFile reads the file at path, which Rename may replace meanwhile.
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
