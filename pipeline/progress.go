package pipeline

import (
	"sync"

	"github.com/dsh-acp/dsh-acp/registry"
)

// progressGate hands a body's reports to the caller's OnProgress only
// while the call waits for that body; other reports are dropped. Closing
// waits for a report being delivered, so none arrives after the body's
// outcome is in, and once a body is abandoned the gate never opens again.
type progressGate struct {
	mu     sync.Mutex
	open   bool
	sealed bool
	fn     func(registry.Progress)
}

func (g *progressGate) report(p registry.Progress) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open && g.fn != nil {
		g.fn(p)
	}
}

// start lets reports through, unless an abandoned body sealed the gate.
func (g *progressGate) start() {
	g.mu.Lock()
	g.open = !g.sealed
	g.mu.Unlock()
}

// stop drops reports from now on; seal keeps them dropped for good.
func (g *progressGate) stop(seal bool) {
	g.mu.Lock()
	g.open = false
	g.sealed = g.sealed || seal
	g.mu.Unlock()
}
