package checkpoint

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/gofrs/flock"
)

// A session holds the file lock turns/<stack> of the repository directory
// from the start of its turn (Push) to its end (Finish), or until its
// process ends. A turn that is not finished and whose lock nobody holds
// is not running: its process stopped during it. Push records which
// turns of other sessions are running when it is taken (commitMeta), so
// that Undo knows which of them ran at the same time as the turn.

// turnName names the n-th turn of stack in commitMeta.Running.
func turnName(stack string, n int) string { return stack + "/" + strconv.Itoa(n) }

// turnLock is the lock of stack's running turn.
func (c *Checkpoints) turnLock(stack string) *flock.Flock {
	return flock.New(filepath.Join(c.dir, "turns", stack), flock.SetPermissions(filePerm))
}

// holdTurn takes this stack's turn lock, for the turn just pushed; the
// caller holds the repository's lock. Failing to take it is logged: the
// turn then merely looks as if it had stopped to other sessions.
func (c *Checkpoints) holdTurn() {
	c.releaseTurn()
	if err := os.MkdirAll(filepath.Join(c.dir, "turns"), dirPerm); err != nil {
		c.opts.Logger.Warn("checkpoint: no turn lock", "root", c.root, "err", err)
		return
	}
	fl := c.turnLock(c.opts.Stack)
	if ok, err := fl.TryLock(); err != nil || !ok {
		c.opts.Logger.Warn("checkpoint: no turn lock", "root", c.root, "stack", c.opts.Stack, "err", err)
		return
	}
	c.turn = fl
}

// releaseTurn releases this stack's turn lock, if held; the caller holds
// the repository's lock.
func (c *Checkpoints) releaseTurn() {
	if c.turn != nil {
		c.turn.Close()
		c.turn = nil
	}
}

// runningTurns returns the names of the turns of other stacks that are
// running now: unfinished, on top of their stack, their lock held.
func (c *Checkpoints) runningTurns(stacks map[string][]stackEntry) []string {
	var running []string
	for stack, entries := range stacks {
		if stack == c.opts.Stack || len(entries) == 0 {
			continue
		}
		top := entries[len(entries)-1]
		if top.end != "" {
			continue
		}
		fl := c.turnLock(stack)
		if ok, err := fl.TryLock(); err == nil && ok {
			fl.Close() // free: that turn's process is gone
			continue
		}
		running = append(running, turnName(stack, top.n))
	}
	return running
}

// Close releases what the value holds between calls: the lock of a turn
// pushed and not finished, which then looks to other sessions as if its
// process had stopped. Call it when the session ends. The value may be
// used again.
func (c *Checkpoints) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.releaseTurn()
}
