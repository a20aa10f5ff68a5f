package live

import "github.com/dsh-acp/dsh-acp/session"

// Tell has the user told text (a server that failed, a sandbox missing):
// logged as a session.Notice at once when TellAtOnce is set, else at the
// start of the next turn, where a client that shows only the
// conversation reads it in place.
func (s *Session) Tell(text string) {
	s.mu.Lock()
	if !s.atOnce {
		s.told = append(s.told, text)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	s.parts.Log.Append(session.Notice{Text: text})
}

// TellAtOnce makes Tell log each notice as it comes, starting with those
// kept so far: for a client that shows notices outside the conversation.
func (s *Session) TellAtOnce() {
	s.mu.Lock()
	s.atOnce = true
	s.mu.Unlock()
	s.tellPending()
}

// tellPending logs the notices kept for now.
func (s *Session) tellPending() {
	s.mu.Lock()
	told := s.told
	s.told = nil
	s.mu.Unlock()
	for _, text := range told {
		s.parts.Log.Append(session.Notice{Text: text})
	}
}
