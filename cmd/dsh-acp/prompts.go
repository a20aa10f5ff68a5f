package main

import (
	"context"
	"sync"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/bridge"
)

// answeringAgent is the bridge as the connection's Agent, counting the
// prompts it is answering so that a shutdown can wait until every prompt
// has its answer before the connection closes.
type answeringAgent struct {
	*bridge.Bridge

	mu      sync.Mutex
	running int
	idle    chan struct{} // closed when running drops to 0; nil while nobody waits
}

// Prompt answers session/prompt through the bridge.
func (a *answeringAgent) Prompt(ctx context.Context, req acp.PromptRequest) (acp.PromptResponse, error) {
	a.mu.Lock()
	a.running++
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.running--
		if a.running == 0 && a.idle != nil {
			close(a.idle)
			a.idle = nil
		}
		a.mu.Unlock()
	}()
	return a.Bridge.Prompt(ctx, req)
}

// waitAnswered returns once no Prompt is running.
func (a *answeringAgent) waitAnswered() {
	a.mu.Lock()
	if a.running == 0 {
		a.mu.Unlock()
		return
	}
	if a.idle == nil {
		a.idle = make(chan struct{})
	}
	idle := a.idle
	a.mu.Unlock()
	<-idle
}
