package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, tt := range []struct {
		name string
		f    *os.File
	}{{"a pipe", r}, {"the null device", null}, {"a file", file}} {
		if isTerminal(tt.f) {
			t.Errorf("%s counts as a terminal", tt.name)
		}
	}
	if master, slave, ok := openPTY(t); ok {
		defer master.Close()
		defer slave.Close()
		if !isTerminal(slave) {
			t.Error("a pseudo-terminal does not count as a terminal")
		}
	}
}

// dsh-acp started in a terminal says, in one line on stderr, what it is
// and where to go, then serves as usual (here until Ctrl-D).
func TestServeInATerminalPrintsOneHint(t *testing.T) {
	master, slave, ok := openPTY(t)
	if !ok {
		t.Skip("no pseudo-terminals here")
	}
	defer master.Close()
	defer slave.Close()
	script := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(script, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := master.Write([]byte{4}); err != nil { // Ctrl-D: end of input
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run(t.Context(), []string{"--model-script", script, "--log-level", "warn"}, envOf(nil), streams{in: slave, out: &out, err: &errOut})
	if code != 0 {
		t.Errorf("exit %d; stderr:\n%s", code, errOut.String())
	}
	if got := errOut.String(); got != terminalHint+"\n" {
		t.Errorf("stderr = %q, want the hint once", got)
	}
	if out.Len() != 0 {
		t.Errorf("stdout = %q, want no frame", out.String())
	}

	// Not in a terminal: no hint.
	errOut.Reset()
	code = run(t.Context(), []string{"--model-script", script, "--log-level", "warn"}, envOf(nil), streams{in: strings.NewReader(""), out: &out, err: &errOut})
	if code != 0 || errOut.Len() != 0 {
		t.Errorf("from a pipe: exit %d, stderr %q", code, errOut.String())
	}
}
