package live

import "time"

// WaitQueued returns once n turns of s wait for the running one.
func WaitQueued(s *Session, n int) {
	for {
		s.mu.Lock()
		queued := len(s.queue)
		s.mu.Unlock()
		if queued >= n {
			return
		}
		time.Sleep(time.Millisecond) // a turn joins the queue within microseconds
	}
}
