package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestDemo runs the demo end to end in-process: server, bridge, pipeline,
// tools, the scripted model and the demo's client.
func TestDemo(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(t.Context(), []string{"demo"}, envOf(nil), streams{in: strings.NewReader(""), out: &out, err: &errOut})
	if code != 0 {
		t.Fatalf("demo exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{
		"● Write greet.sh  (edit)",
		"+name=world",
		"-name=world",
		"+name=editor",
		`? permission asked to run "sh greet.sh`,
		"→ answered allow-once",
		"│ hello, editor",
		"└ exit status 0",
		"[x] Run the script",
		"stop reason: end_turn",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, out.String())
		}
	}
}
