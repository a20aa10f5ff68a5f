package app

import (
	"context"
	"fmt"
	"sync"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/llm"
)

// Models is the catalog of models a session may switch between.
type Models interface {
	// Provider returns the provider that serves model at the reasoning
	// effort ("" leaves it to the model).
	Provider(model, effort string) (llm.Provider, error)
	// Info describes model: its name, context window and prices.
	Info(model string) agent.ModelInfo
}

// sessionModel is a session's model as its settings say now: each request
// goes to the provider of the model and effort chosen at the time it is
// made, so a change applies from the next request.
type sessionModel struct {
	models   Models
	fallback llm.Provider // when models is nil

	mu       sync.Mutex
	settings live.Settings
}

// set records the session's settings.
func (m *sessionModel) set(s live.Settings) {
	m.mu.Lock()
	m.settings = s
	m.mu.Unlock()
}

func (m *sessionModel) current() live.Settings {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.settings
}

// Stream implements llm.Provider.
func (m *sessionModel) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	if m.models == nil {
		return m.fallback.Stream(ctx, req)
	}
	s := m.current()
	p, err := m.models.Provider(s.Model, s.Effort)
	if err != nil {
		return nil, fmt.Errorf("model %q: %w", s.Model, err)
	}
	return p.Stream(ctx, req)
}

// info describes the model the next request goes to.
func (m *sessionModel) info() agent.ModelInfo {
	if m.models == nil {
		return agent.ModelInfo{}
	}
	return m.models.Info(m.current().Model)
}
