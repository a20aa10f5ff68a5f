package fs

import (
	"context"
	"errors"
	iofs "io/fs"

	"github.com/dsh-acp/dsh-acp/tools/workspace"
)

// unsavedBuffer returns the content of a file the disk does not have (its
// Stat said so) but the FileSystem may still hold: an editor's unsaved
// buffer, which an editor's FileSystem reads before the disk. ok is false
// when there is none: the file is new (or, for read, missing). write and
// edit ask before they create, so a buffer is never taken for a new file
// and clobbered.
func unsavedBuffer(ctx context.Context, files workspace.FileSystem, abs string) (data []byte, ok bool, err error) {
	data, err = files.ReadFile(ctx, abs)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return data, true, nil
}
