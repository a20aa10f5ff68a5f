package command_test

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/command"
)

// FuzzEvaluate checks that no command line makes the parse, the verdict,
// the prefixes or the presentation panic, and that a line Parse refuses
// is never allowed.
func FuzzEvaluate(f *testing.F) {
	for _, cases := range []map[string][]evalCase{evalCases(), attackCases()} {
		for _, list := range cases {
			for _, c := range list {
				f.Add(c.cmd)
			}
		}
	}
	env := command.Env{Inside: inside, Writes: true, Rules: testRules()}
	f.Fuzz(func(t *testing.T, src string) {
		v, _ := command.Evaluate(src, env)
		c, err := command.Parse(src)
		if err != nil {
			if v != command.Ask {
				t.Fatalf("Evaluate(%q) = %v for a line that does not parse", src, v)
			}
			return
		}
		c.Prefixes()
		c.Prefix()
		command.Present(src)
	})
}
