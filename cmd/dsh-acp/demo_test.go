package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestDemo runs the demo end to end in-process: server, bridge, pipeline,
// tools, the scripted model and the demo's client.
func TestDemo(t *testing.T) {
	out := runDemo(t)
	for _, want := range []string{
		"permission preset workspace-write",
		"● Write greet.sh  (edit)",
		"@@ -0,0 +1,4 @@\n  +#!/bin/sh\n  +# Print a greeting.\n  +name=world\n  +echo \"hello, $name\"\n  completed",
		"-name=world",
		"+name=editor",
		`? permission asked for "sh greet.sh`,
		"→ answered allow-once",
		"│ hello, editor",
		"└ exit status 0",
		"[x] Run the script",
		"stop reason: end_turn",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%s", want, out)
		}
	}
}

// The demo runs under the --permission preset: each preset asks before
// what it does not allow (and the demo approves once), so the session
// ends as scripted either way.
func TestDemoPermissionPresets(t *testing.T) {
	tests := []struct {
		preset   string
		asked    []string // the titles of the permission requests, in order
		notAsked []string
	}{
		{"read-only", []string{"Write greet.sh", "Edit greet.sh", "sh greet.sh"}, nil},
		{"workspace-write", []string{"sh greet.sh"}, []string{"Write greet.sh", "Edit greet.sh"}},
		{"full-access", nil, []string{"Write greet.sh", "Edit greet.sh", "sh greet.sh"}},
	}
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			out := runDemo(t, "--permission", tt.preset)
			if !strings.Contains(out, "permission preset "+tt.preset) {
				t.Errorf("the header does not name the preset:\n%s", out)
			}
			rest := out
			for _, title := range tt.asked {
				ask := `? permission asked for "` + title
				i := strings.Index(rest, ask)
				if i < 0 {
					t.Fatalf("no %s (in order) in:\n%s", ask, out)
				}
				rest = rest[i+len(ask):]
			}
			for _, title := range tt.notAsked {
				if strings.Contains(out, `? permission asked for "`+title) {
					t.Errorf("%s asked for %s:\n%s", tt.preset, title, out)
				}
			}
		})
	}
}

// runDemo runs `dsh-acp demo args…` in-process and returns its transcript;
// the demo must succeed.
func runDemo(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(t.Context(), append([]string{"demo"}, args...), envOf(nil), streams{in: strings.NewReader(""), out: &out, err: &errOut})
	if code != 0 {
		t.Fatalf("demo exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	return out.String()
}
