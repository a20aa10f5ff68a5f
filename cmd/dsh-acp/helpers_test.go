package main

import (
	"bytes"
	"sync"
	"time"
)

// hangGuard bounds every wait of the binary tests; it only turns a hang
// into a failure and is never what a passing test waits for.
const hangGuard = time.Minute

// lockedBuffer is a bytes.Buffer safe for a writer and a reader at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
