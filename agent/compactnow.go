package agent

import (
	"context"
)

// compactNowWindow is the context window /compact assumes for a model
// whose window is unknown, to size its summary request.
const compactNowWindow = 128_000

// Compact summarizes the conversation now, as the user's /compact asks:
// every completed turn but the most recent, which stays verbatim, goes
// into the summary the model sees from then on. It returns how many turns
// it summarized (0 when fewer than two completed turns follow the latest
// summary). It refuses to run while a prompt runs (ErrBusy).
func (a *Agent) Compact(ctx context.Context) (int, error) {
	if !a.busy.TryLock() {
		return 0, ErrBusy
	}
	defer a.busy.Unlock()
	m := a.model()
	if m.ContextWindow <= 0 {
		m.ContextWindow = compactNowWindow
	}
	t := &turn{agent: a, log: a.opts.Log}
	current := t.log.Turn() + 1 // no turn runs: every turn is complete
	summarized := 0
	for {
		// No room for recent turns beyond the last: keep just that one.
		c, ok := a.plan(t.events(), current, m, 0)
		if !ok {
			return summarized, nil
		}
		if err := t.compact(ctx, m, c); err != nil {
			return summarized, err
		}
		summarized += len(c.turns)
		if !c.more {
			return summarized, nil
		}
	}
}
