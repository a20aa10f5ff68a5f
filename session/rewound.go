package session

import "math"

// Rewound takes back the conversation from the event numbered From (the
// TurnStarted of the turn the user's /rewind dropped) up to and including
// this event: the model no longer sees those events, and a replay no
// longer shows them (the user saw them go). Reply is what the user was
// told of the rewind, shown live only. A later rewind may take back an
// earlier one with the turns before it.
type Rewound struct {
	From  int64
	Reply string
}

// Kind returns "conversation/rewound".
func (Rewound) Kind() string { return "conversation/rewound" }

func (Rewound) isPayload() {}

// WithoutRewound returns events without those a Rewound among them took
// back, in order. Two kinds stay: a summary (Compacted, with the
// CompactionStarted it ends) of only events before those taken back —
// written after the turn, it holds nothing of it — and the payloads keep
// reports true for (nil keeps none). events must be ordered by Seq, as a
// Log's are. Without a Rewound among them, events itself is returned.
func WithoutRewound(events []Event, keep func(Payload) bool) []Event {
	cut := int64(math.MaxInt64) // scanning back: events from cut on are taken back
	var dropped []bool
	summaries := map[int64]bool{} // the CompactionStarted of each summary kept
	for i := len(events) - 1; i >= 0; i-- {
		ev := events[i]
		if r, ok := ev.Payload.(Rewound); ok {
			cut = min(cut, r.From)
			if dropped == nil {
				dropped = make([]bool, len(events))
			}
		}
		if dropped == nil || ev.Seq < cut {
			continue
		}
		switch p := ev.Payload.(type) {
		case Compacted:
			if p.Through < cut {
				summaries[p.Started] = true
				continue
			}
		case CompactionStarted:
			if summaries[ev.Seq] {
				continue
			}
		}
		dropped[i] = keep == nil || !keep(ev.Payload)
	}
	if dropped == nil {
		return events
	}
	out := make([]Event, 0, len(events))
	for i, ev := range events {
		if !dropped[i] {
			out = append(out, ev)
		}
	}
	return out
}
