//go:build !unix

package workspace

import (
	"os"

	"github.com/dsh-acp/dsh-acp/internal/atomicfile"
)

// openNoFollow is not available here; temporary files are checked to be
// regular files before they are opened.
const openNoFollow = 0

// lockTemp does nothing: there are no advisory locks here.
func lockTemp(*os.File) {}

// tryLock reports that there are no locks, so only age makes a temporary
// file stale.
func tryLock(*os.File) lockResult { return lockUnsupported }

// replaceWith closes the written temporary file tmp and renames it over
// target (atomicfile.Rename: MoveFileEx, replacing it in one step):
// Windows renames no file that is open without delete sharing, as Go
// opens files.
func replaceWith(tmp *os.File, target string) error {
	if err := tmp.Close(); err != nil {
		return err
	}
	return atomicfile.Rename(tmp.Name(), target)
}
