//go:build unix

package search_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/search"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// hangGuard bounds a wait for something that must happen; it guards
// against a wedged test and is never a timing assertion.
const hangGuard = 2 * time.Minute

// TestCancellation cancels grep and glob while they walk: the body itself
// returns ABORTED after the cancel, having visited no more files than
// were in flight when it came, and leaves no goroutine behind (goleak
// checks at exit). Each walk is held at its first file until the cancel
// is in, so "mid-walk" is an event, not a guess at how long a walk takes.
func TestCancellation(t *testing.T) {
	const files, workers = 400, 4
	dir := t.TempDir()
	genBigTree(t, dir, files)
	calls := []struct {
		tool string
		args string
	}{
		{"grep", `{"pattern":"handler\\(w"}`},
		{"glob", `{"pattern":"**/*.go"}`},
	}
	for _, c := range calls {
		t.Run("builtin/"+c.tool, func(t *testing.T) {
			var visits atomic.Int64
			reached, release := make(chan struct{}), make(chan struct{})
			var reachedOnce, releaseOnce sync.Once
			unhold := func() { releaseOnce.Do(func() { close(release) }) }
			t.Cleanup(unhold) // a failed test still lets the walk end
			opts := search.WithVisitHook(search.Options{NoRipgrep: true, Workers: workers}, func(string) {
				visits.Add(1)
				reachedOnce.Do(func() { close(reached) })
				<-release
			})
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := runBody(t, ctx, dir, opts, c.tool, c.args)
			await(t, reached, "the walk to reach its first file")
			// Every worker is now in the hook or short of its next file;
			// none gets past it before the cancel is in.
			cancel()
			unhold()
			wantAborted(t, awaitBody(t, done))
			// A worker visits a file only after checking the call is still
			// wanted: each visits at most the one file it was at or had
			// just checked when the cancel came.
			if n := visits.Load(); n > workers {
				t.Errorf("%d files visited (the tree holds over %d) with %d workers: the walk went on after the cancel", n, files, workers)
			}
		})
	}
	t.Run("ripgrep/grep", func(t *testing.T) {
		rg := standInRipgrep(t)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		done := runBody(t, ctx, dir, search.Options{Ripgrep: rg.path}, "grep", calls[0].args)
		pid := rg.awaitStart(t)
		cancel()
		wantAborted(t, awaitBody(t, done))
		// The body returned, so ripgrep must have been waited for: its
		// process is gone, not running on and not a zombie.
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("ripgrep (pid %d) was not killed and reaped: kill(0) = %v", pid, err)
		}
	})
}

// runBody runs the named tool's body for args in dir under ctx, on a
// goroutine of its own, and returns where its error arrives. It bypasses
// the pipeline, which stops waiting for a body some time after a cancel:
// here only the body's own return counts.
func runBody(t *testing.T, ctx context.Context, dir string, opts search.Options, name, args string) <-chan error {
	t.Helper()
	ws, err := workspace.New(dir, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := search.Tools(ws, opts)
	if err != nil {
		t.Fatal(err)
	}
	var tool *registry.Tool
	for _, tt := range tools {
		if tt.Name() == name {
			tool = tt
		}
	}
	a, err := registry.MaterializeArguments(args)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		bound, _ := tool.Bind(a)
		_, err := bound.Run(ctx, registry.NewCall(registry.CallSpec{ID: "call_1", Name: name, Bound: bound}))
		done <- err
	}()
	return done
}

// await waits for ch to close; what names the event in the failure.
func await(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(hangGuard):
		t.Fatalf("hung waiting for %s", what)
	}
}

// awaitBody waits for the body's error.
func awaitBody(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(hangGuard):
		t.Fatal("the body did not return after the cancel")
		return nil
	}
}

// wantAborted checks that err is the ABORTED failure of a cancelled call.
func wantAborted(t *testing.T, err error) {
	t.Helper()
	var re *registry.Error
	if !errors.As(err, &re) || re.Code != registry.CodeAborted || !errors.Is(err, context.Canceled) {
		t.Fatalf("the body returned %v, want %s caused by the cancel", err, registry.CodeAborted)
	}
}

// standIn is a program grep runs as ripgrep that writes part of a search's
// output, says it has started and then blocks until it is killed.
type standIn struct {
	path    string
	started string // named pipe: the program writes its pid to it
}

// standInRipgrep writes the stand-in. Being a shell script that runs no
// other program, killing it ends everything holding grep's end of its
// output pipe, as killing ripgrep does.
func standInRipgrep(t *testing.T) standIn {
	t.Helper()
	dir := t.TempDir()
	s := standIn{path: filepath.Join(dir, "rg"), started: filepath.Join(dir, "started")}
	gate := filepath.Join(dir, "gate") // never opened for writing
	for _, p := range []string{s.started, gate} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	// One match message, then half of the next: the kill lands in the
	// middle of ripgrep's output.
	script := "#!/bin/sh\n" +
		`printf '%s\n' '{"type":"match","data":{"path":{"text":"pkg00/sub00/file00000.go"},"lines":{"text":"func handler(w http.ResponseWriter, r *http.Request) {\n"},"line_number":1}}'` + "\n" +
		`printf '%s' '{"type":"match","data":{"pa'` + "\n" +
		"echo $$ > '" + s.started + "'\n" +
		"read _ < '" + gate + "'\n"
	if err := os.WriteFile(s.path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// Whoever still waits on a pipe when the test ends is let go.
	t.Cleanup(func() {
		for _, p := range []string{s.started, gate} {
			if f, err := os.OpenFile(p, os.O_RDWR, 0); err == nil {
				f.Close()
			}
		}
	})
	return s
}

// awaitStart waits for the stand-in to have written its output and
// returns its pid.
func (s standIn) awaitStart(t *testing.T) int {
	t.Helper()
	got := make(chan []byte, 1)
	go func() {
		data, _ := os.ReadFile(s.started) // blocks until the stand-in writes
		got <- data
	}()
	var data []byte
	select {
	case data = <-got:
	case <-time.After(hangGuard):
		t.Fatal("hung waiting for the stand-in ripgrep to start")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("the stand-in ripgrep said %q, want its pid", data)
	}
	return pid
}
