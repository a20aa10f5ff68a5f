package shell

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

// spillDir is the directory of one Shell's spill files: created as
// dsh-bash-* in parent when the first file is, and removed with every
// file in it when the Shell closes. It is safe for concurrent use.
type spillDir struct {
	parent string

	mu      sync.Mutex
	path    string // "" until the first file
	removed bool
}

// create opens a new spill file.
func (d *spillDir) create() (*os.File, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.removed {
		return nil, errors.New("the spill directory has been removed")
	}
	if d.path == "" {
		path, err := os.MkdirTemp(d.parent, "dsh-bash-*")
		if err != nil {
			return nil, err
		}
		d.path = path
	}
	return os.CreateTemp(d.path, "output-*.log")
}

// remove deletes the directory and every file in it; later creates fail.
// It is idempotent.
func (d *spillDir) remove() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.removed = true
	if d.path == "" {
		return nil
	}
	path := d.path
	d.path = ""
	if err := os.RemoveAll(path); err != nil {
		return fmt.Errorf("removing the spill files in %s: %w", path, err)
	}
	return nil
}
