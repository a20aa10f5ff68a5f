package main

import (
	"os"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/corpus"
)

// TestDemoScriptIsInTheCorpus keeps the demo's script and the corpus copy
// the other test suites run (testdata/scripts/demo.jsonl) the same.
func TestDemoScriptIsInTheCorpus(t *testing.T) {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Name != "demo" {
			continue
		}
		data, err := os.ReadFile(c.ScriptPath(corpus.Dir()))
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != demoScript {
			t.Fatalf("testdata/%s differs from the demo's script: copy demoScript there", c.Script)
		}
		if len(c.Prompts) != 1 || c.Prompts[0] != demoPrompt {
			t.Fatalf("the corpus demo case prompts %q, the demo %q", c.Prompts, demoPrompt)
		}
		return
	}
	t.Fatal("the corpus has no demo case")
}
