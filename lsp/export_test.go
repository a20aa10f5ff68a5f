package lsp

import (
	"context"
	"fmt"
)

// PIDs returns the process ids of the servers that have been started and
// not yet stopped, for the tests' process checks.
func (m *Manager) PIDs() []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []int
	for _, sl := range m.slots {
		select {
		case <-sl.ready:
			if sl.srv != nil {
				out = append(out, sl.srv.proc.cmd.Process.Pid)
			}
		default:
		}
	}
	return out
}

// WaitStopped waits until the server with process id pid has exited and
// its connection has ended.
func (m *Manager) WaitStopped(pid int) {
	m.mu.Lock()
	var s *server
	for _, sl := range m.slots {
		if sl.srv != nil && sl.srv.proc.cmd.Process.Pid == pid {
			s = sl.srv
		}
	}
	m.mu.Unlock()
	if s != nil {
		<-s.proc.exited
		<-s.conn.Done()
	}
}

// Opened reports whether path is open on a running server, with text.
func (m *Manager) Opened(path, text string) bool {
	for _, s := range m.running() {
		if got, ok := s.text(path); ok && got == text {
			return true
		}
	}
	return false
}

// WaitLoading starts path's server and waits until it reports work in
// progress (it is loading).
func (m *Manager) WaitLoading(ctx context.Context, path string) error {
	srv, reason := m.serverFor(ctx, m.abs(path), true)
	if srv == nil {
		return fmt.Errorf("no server for %s: %s", path, reason)
	}
	if !srv.work.waitFor(ctx, true) {
		return ctx.Err()
	}
	return nil
}
