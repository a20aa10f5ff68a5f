package checkpoint

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// lockRetry is how often a waiting lock is tried again.
const lockRetry = 20 * time.Millisecond

// lock takes the repository for one operation: first this value's mutex,
// then the file lock other values and processes of the same root take,
// waiting for either as long as ctx allows. Stale git lock files are
// cleared once it is held. The returned function releases both.
func (c *Checkpoints) lock(ctx context.Context) (unlock func(), err error) {
	c.mu.Lock()
	fl := flock.New(filepath.Join(c.dir, "lock"), flock.SetPermissions(filePerm))
	ok, err := fl.TryLockContext(ctx, lockRetry)
	if err != nil || !ok {
		c.mu.Unlock()
		if err == nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("checkpoint: lock %s: %w", c.dir, err)
	}
	c.removeStaleLocks()
	return func() {
		fl.Close()
		c.mu.Unlock()
	}, nil
}
