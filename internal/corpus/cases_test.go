package corpus_test

import (
	"flag"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/corpus"
)

var update = flag.Bool("update", false, "rewrite the golden files of the corpus")

// TestCases runs every corpus case in process and checks it: its
// expectations, the invariants every case keeps, and its golden frames.
func TestCases(t *testing.T) {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r := runCase(t, c)
			frames := r.frames(t)
			for _, err := range c.Verify(r.layout, frames, r.stops) {
				t.Error(err)
			}
			got := corpus.GoldenUpdates(r.layout, string(r.sid), frames)
			if err := c.CheckGolden(corpus.Dir(), got, *update); err != nil {
				t.Error(err)
			}
		})
	}
}
