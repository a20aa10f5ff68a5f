package session_test

import (
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/session"
)

// TestWithoutRewound: a rewind takes back the events from its From to
// itself; ranges apart, nested and repeated are each taken back once; a
// summary of only earlier events stays, with its start; keep spares the
// payloads it names.
func TestWithoutRewound(t *testing.T) {
	// events builds a log of numbered events: a Rewound where from gives
	// its From, a summary through 2 started at 4 at 5 (when summary is
	// set), a Usage elsewhere.
	events := func(n int, from map[int64]int64, summary bool) []session.Event {
		var out []session.Event
		for seq := int64(1); seq <= int64(n); seq++ {
			var p session.Payload = session.Usage{}
			if f, ok := from[seq]; ok {
				p = session.Rewound{From: f}
			}
			switch {
			case summary && seq == 4:
				p = session.CompactionStarted{}
			case summary && seq == 5:
				p = session.Compacted{Through: 2, Started: 4}
			}
			out = append(out, session.Event{Seq: seq, Payload: p})
		}
		return out
	}
	seqs := func(events []session.Event) []int64 {
		var out []int64
		for _, ev := range events {
			out = append(out, ev.Seq)
		}
		return out
	}
	keepUsage := func(p session.Payload) bool { _, ok := p.(session.Usage); return ok }
	tests := []struct {
		name    string
		n       int
		from    map[int64]int64
		summary bool
		keep    func(session.Payload) bool
		want    []int64
	}{
		{"no rewind", 3, nil, false, nil, []int64{1, 2, 3}},
		{"one", 6, map[int64]int64{5: 3}, false, nil, []int64{1, 2, 6}},
		{"two apart", 9, map[int64]int64{3: 2, 7: 5}, false, nil, []int64{1, 4, 8, 9}},
		{"a later one takes back an earlier", 9, map[int64]int64{5: 4, 8: 2}, false, nil, []int64{1, 9}},
		{"back to back", 6, map[int64]int64{4: 3, 5: 2}, false, nil, []int64{1, 6}},
		{"keep spares what it names", 6, map[int64]int64{5: 3}, false, keepUsage, []int64{1, 2, 3, 4, 6}},
		{"a summary of earlier events stays", 7, map[int64]int64{6: 3}, true, nil, []int64{1, 2, 4, 5, 7}},
		{"a summary of events taken back goes", 7, map[int64]int64{6: 2}, true, nil, []int64{1, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := events(tt.n, tt.from, tt.summary)
			if got := seqs(session.WithoutRewound(in, tt.keep)); !slices.Equal(got, tt.want) {
				t.Errorf("kept %v, want %v", got, tt.want)
			}
		})
	}
}
