//go:build unix

package shell

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A spill file keeps at most SpillLimit bytes of the output, says so at
// its end and in the result, and is removed with the rest of the
// session's spill files when the Shell closes.
func TestSpillFilesAreCappedAndRemovedOnClose(t *testing.T) {
	const limit = 10_000
	seq := seqOutput(100_000) // 588,895 bytes
	tests := []struct {
		name string
		// run returns the text that names the spill file.
		run func(t *testing.T, f *fixture) string
		// marker finds the spill path in that text.
		marker *regexp.Regexp
	}{
		{
			name: "foreground command",
			run: func(t *testing.T, f *fixture) string {
				_, text := f.run(t, "bash", `{"command":"seq 1 100000"}`)
				return text
			},
			marker: regexp.MustCompile(`\n\[output truncated; the first 10000 bytes of the output: (\S+)\]$`),
		},
		{
			name: "background job",
			run: func(t *testing.T, f *fixture) string {
				f.run(t, "bash", `{"command":"seq 1 100000","run_in_background":true}`)
				waitJobEnded(t, f, "job_1")
				_, text := f.run(t, "job_output", `{"job_id":"job_1"}`)
				return text
			},
			marker: regexp.MustCompile(`^\[\d+ earlier bytes not kept; the first 10000 bytes of the output: (\S+)\]\n`),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spillDir := t.TempDir()
			f := newFixture(t, Options{OutputLimit: 100, SpillLimit: limit, SpillDir: spillDir})
			text := tt.run(t, f)
			m := tt.marker.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("no capped spill marker in %q", text[:min(len(text), 300)])
			}
			path := m[1]
			if filepath.Dir(filepath.Dir(path)) != spillDir {
				t.Errorf("spill file %s is not in a directory of %s", path, spillDir)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			kept, note, _ := strings.Cut(string(data), "\n[dsh-acp: ")
			if kept != seq[:limit] {
				t.Errorf("the spill file does not start with the first %d bytes of the output", limit)
			}
			if want := "this file keeps the first 10000 bytes of the output; 578895 more bytes were not written]\n"; note != want {
				t.Errorf("the spill file ends %q, want %q", note, want)
			}

			if err := f.sh.Close(); err != nil {
				t.Fatal(err)
			}
			for _, gone := range []string{path, filepath.Dir(path)} {
				if _, err := os.Stat(gone); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s survives Close: %v", gone, err)
				}
			}
			if _, err := os.Stat(spillDir); err != nil {
				t.Errorf("Close removed the spill directory's parent: %v", err)
			}
		})
	}
}

// seqOutput is what `seq 1 n` prints.
func seqOutput(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strconv.Itoa(i) + "\n")
	}
	return b.String()
}

// waitJobEnded waits, without reading its output, until job id has ended.
func waitJobEnded(t *testing.T, f *fixture, id string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		_, text := f.run(t, "job_list", `{}`)
		if !strings.Contains(text, id+" (running)") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still runs: %s", id, text)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
