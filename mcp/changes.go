package mcp

import (
	"context"
	"errors"
	"fmt"
)

// relistTimeout bounds listing a server's tools again after it said its
// list changed.
const relistTimeout = DefaultConnectTimeout

// watch reports c when its session ends before Close: its tools leave
// Tools and the change is announced.
func (s *Servers) watch(c *conn) {
	s.wg.Go(func() {
		c.mu.Lock()
		session := c.session
		c.mu.Unlock()
		waitErr := session.Wait()
		c.mu.Lock()
		if c.closing {
			c.mu.Unlock()
			return
		}
		c.stopped = errors.New("the server stopped")
		if waitErr != nil {
			c.stopped = fmt.Errorf("the server stopped: %w", waitErr)
		}
		c.mu.Unlock()
		msg := c.stopped.Error()
		if c.proc != nil {
			c.proc.kill()
			if tail := c.proc.tail(); tail != "" {
				msg += "; stderr:\n" + tail
			}
		}
		s.opts.logger().Warn("mcp server stopped", "server", c.cfg.Name, "err", c.stopped)
		s.opts.report(c.cfg.Name, msg)
		s.notify()
	})
}

// relist lists c's tools again, in the background, and announces the
// change.
func (s *Servers) relist(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.wg.Go(func() {
		c.relisting.Lock() // one listing at a time, so the newest list wins
		defer c.relisting.Unlock()
		session, err := c.running()
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(s.background, relistTimeout)
		defer cancel()
		tools, err := listTools(ctx, session)
		if err != nil {
			s.opts.logger().Warn("mcp tools not listed again", "server", c.cfg.Name, "err", err)
			return
		}
		c.setTools(tools)
		s.notify()
	})
}

// OnToolsChanged registers fn to run whenever the set of tools changes: a
// server announced tools/list_changed (and was listed again) or stopped.
// fn runs on a background goroutine; it should replace the tools it
// registered with Tools.
func (s *Servers) OnToolsChanged(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onChange = append(s.onChange, fn)
}

func (s *Servers) notify() {
	s.mu.Lock()
	fns := append([]func(){}, s.onChange...)
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return
	}
	for _, fn := range fns {
		fn()
	}
}
