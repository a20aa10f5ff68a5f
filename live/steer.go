package live

import (
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// inbox is what the user sent while one model turn runs, not yet taken
// by the model.
type inbox struct {
	messages [][]presentation.ContentBlock
	closed   bool // the turn took its last: nothing more is accepted
}

// Steer hands content to the running model turn, which takes it at its
// next step — after the running tool batch, never interrupting a tool —
// as a message from the user. It reports false, keeping nothing, when no
// model turn runs (none at all, or a local command, or one that took its
// last message and is ending).
func (s *Session) Steer(content []presentation.ContentBlock) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.steer == nil || s.steer.closed {
		return false
	}
	s.steer.messages = append(s.steer.messages, presentation.CloneContent(content))
	return true
}

// steering is the running model turn's side of the inbox (agent.Steering).
type steering struct{ s *Session }

// Take returns what was sent since the last Take; when last is set and
// nothing waits, the inbox closes, so that nothing sent later is lost in
// a turn that is ending.
func (st steering) Take(last bool) [][]presentation.ContentBlock {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.steer
	if in == nil {
		return nil
	}
	out := in.messages
	in.messages = nil
	if last && len(out) == 0 {
		in.closed = true
	}
	return out
}

// openSteering starts taking what the user sends during a model turn.
func (s *Session) openSteering() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steer = &inbox{}
}

// closeSteering stops taking what the user sends; what the turn did not
// take (it was cancelled, or failed) is logged as the user's messages, so
// the user sees it and the model reads it at the next turn.
func (s *Session) closeSteering() {
	s.mu.Lock()
	in := s.steer
	s.steer = nil
	s.mu.Unlock()
	if in == nil {
		return
	}
	for _, content := range in.messages {
		s.parts.Log.Append(session.UserMessage{Content: content, Steered: true})
	}
}
