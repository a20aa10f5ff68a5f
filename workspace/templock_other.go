//go:build !unix

package workspace

import "os"

// openNoFollow is not available here; temporary files are checked to be
// regular files before they are opened.
const openNoFollow = 0

// lockTemp does nothing: there are no advisory locks here.
func lockTemp(*os.File) {}

// tryLock reports that there are no locks, so only age makes a temporary
// file stale.
func tryLock(*os.File) lockResult { return lockUnsupported }
