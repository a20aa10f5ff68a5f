package agent

import (
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// Steering is where the messages a user sends while a turn runs come
// from (live.Session keeps them).
type Steering interface {
	// Take returns the messages sent since the last Take, oldest first.
	// With last set and none waiting, it takes no more: the turn ends,
	// and what is sent from then on is for another turn.
	Take(last bool) [][]presentation.ContentBlock
}

// steer logs what the user sent since the last step, reporting whether
// there was any; last says the model has finished and the turn ends
// unless something arrived.
func (t *turn) steer(last bool) bool {
	if t.steering == nil {
		return false
	}
	messages := t.steering.Take(last)
	for _, content := range messages {
		t.log.Append(session.UserMessage{Content: content, Steered: true})
	}
	return len(messages) > 0
}
