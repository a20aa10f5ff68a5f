package bridge

import (
	"context"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// Steer takes what the user sent while a turn runs (_session/steering):
// the running model turn reads it at its next step, after the running
// tool batch, and it shows as the user's message where it landed. With
// no model turn running, it starts a turn of its own, unless the client
// asked for promptRequired, which is then the answer.
func (b *Bridge) Steer(ctx context.Context, req acp.SteeringRequest) (acp.SteeringResponse, error) {
	s, err := b.session(req.SessionID)
	if err != nil {
		return acp.SteeringResponse{}, err
	}
	content, err := s.prompts.content(ctx, req.Prompt)
	if err != nil {
		return acp.SteeringResponse{}, err
	}
	if s.rt.Steer(content) {
		return acp.SteeringResponse{Outcome: acp.SteeringInjected}, nil
	}
	if req.IdleBehavior() == acp.IdleBehaviorPromptRequired {
		return acp.SteeringResponse{Outcome: acp.SteeringPromptRequired, Reason: acp.SteeringReasonNoRunningTurn}, nil
	}
	if !s.startTurn(ctx, content) {
		return acp.SteeringResponse{}, acp.InternalError("the session is closing")
	}
	return acp.SteeringResponse{Outcome: acp.SteeringStartedNewTurn}, nil
}

// startTurn runs a turn no session/prompt asked for (so nothing answers
// it), in its place among the session's turns, taken now: a prompt sent
// after the steering runs after it. The client is shown the user's
// message first, since it sent none. The turn outlives the request that
// started it; session/cancel and the session's close end it. It reports
// false for a session that is closing.
func (s *liveSession) startTurn(ctx context.Context, content []presentation.ContentBlock) bool {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return false
	}
	run, err := s.rt.Reserve()
	if err != nil {
		s.mu.Unlock()
		return false
	}
	s.background.Add(1) // under s.mu: close, which waits, sets closed first
	s.mu.Unlock()
	s.out.push(userChunks(content, nil)...)
	turnCtx := context.WithoutCancel(ctx)
	go func() {
		defer s.background.Done()
		if _, err := run(turnCtx, s.turn(content)); err != nil {
			s.bridge.opts.Logger.Warn("a turn started by steering failed", "session", s.id, "err", err)
		}
	}()
	return true
}
