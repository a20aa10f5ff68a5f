package mcp

import (
	"strings"
	"sync"
)

// stderrTailSize is how many bytes of a server's stderr a report quotes.
const stderrTailSize = 2048

// tail keeps the last stderrTailSize bytes written to it. It is safe for
// concurrent use.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

// Write appends p, dropping the oldest bytes beyond the limit.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrTailSize; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the kept bytes, trimmed of surrounding white space.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
