package lsp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/lsp"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// fakeManager returns a Manager whose .go server is this test binary as a
// fake server in mode.
func fakeManager(t *testing.T, mode string, opts lsp.Options) (*lsp.Manager, string) {
	t.Helper()
	t.Setenv(fakeServerEnv, mode)
	root := t.TempDir()
	opts.Roots = []string{root}
	opts.Servers = []lsp.ServerConfig{{Name: "fake", Command: []string{os.Args[0]}, Extensions: []string{".go"}, LanguageID: "go"}}
	m := lsp.New(opts)
	t.Cleanup(func() { _ = m.Close() })
	return m, root
}

func TestSlowServersAreBounded(t *testing.T) {
	t.Run("a server that never initializes", func(t *testing.T) {
		m, root := fakeManager(t, "hang", lsp.Options{StartTimeout: 100 * time.Millisecond})
		got := write(t, m, root, "a.go", "package a\n")
		if got != "Note: fake did not start within 100ms." {
			t.Fatalf("AfterWrite = %q, want the start timeout note", got)
		}
	})
	t.Run("a server that never publishes", func(t *testing.T) {
		m, root := fakeManager(t, "silent", lsp.Options{Settle: 100 * time.Millisecond})
		if got := write(t, m, root, "a.go", "package a\n"); got != "" {
			t.Fatalf("AfterWrite = %q, want nothing", got)
		}
		f := newToolFixture(t, m)
		got := text(t, f.call(t, lsp.DiagnosticsName, lsp.DiagnosticsArgs{Path: "a.go"}))
		if !strings.Contains(got, "fake gave no diagnostics for this version of the file within 100ms") {
			t.Fatalf("diagnostics = %q, want the settle note", got)
		}
		r := f.call(t, lsp.DefinitionName, lsp.PositionArgs{FilePath: "a.go", Line: 1, Symbol: "a"})
		if got := presentation.JoinText(r.Content); !r.IsError || !strings.Contains(got, "fake: not implemented") {
			t.Fatalf("definition = %q (error %v), want the server's refusal as the tool's error", got, r.IsError)
		}
	})
}

// TestAfterWriteNeverWaitsForAStartPastTheSettleTime: a server that never
// answers initialize holds a write no longer than the settle time, however
// long its start may take; it goes on starting in the background. The
// hang guard is far shorter than the start timeout, so a write waiting for
// the start fails the test.
func TestAfterWriteNeverWaitsForAStartPastTheSettleTime(t *testing.T) {
	m, root := fakeManager(t, "hang", lsp.Options{StartTimeout: 100 * hangGuard, Settle: 10 * time.Millisecond})
	path := filepath.Join(root, "a.go")
	if err := os.WriteFile(path, []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 2)
	for range 2 { // the second write finds the server still starting
		go func() { done <- m.AfterWrite(context.Background(), path, "package a\n") }()
		select {
		case got := <-done:
			if got != "" {
				t.Errorf("AfterWrite = %q, want nothing while the server starts", got)
			}
		case <-time.After(hangGuard):
			t.Fatal("AfterWrite waits for a server that never answers initialize")
		}
	}
	if pids := m.PIDs(); len(pids) != 0 {
		t.Errorf("the server reads as started (%v); it never answered initialize", pids)
	}
}

func TestAfterReadNeverWaitsForAStart(t *testing.T) {
	m, root := fakeManager(t, "hang", lsp.Options{StartTimeout: hangGuard})
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	// Returns at once although the server is still starting (it never
	// will); a blocking AfterRead would hang here until the guard.
	m.AfterRead(ctx, filepath.Join(root, "a.go"), "package a\n")
	m.AfterRead(ctx, filepath.Join(root, "a.go"), "package a\n")
}

func TestPulledDiagnostics(t *testing.T) {
	m, root := fakeManager(t, "pull", lsp.Options{Settle: hangGuard})
	want := "fake reports 1 new error in a.go after this change:\na.go:1:9: pulled error"
	if got := write(t, m, root, "a.go", "package a\n"); got != want {
		t.Fatalf("AfterWrite = %q, want %q", got, want)
	}
	if got := write(t, m, root, "a.go", "package b\n"); got != "" {
		t.Fatalf("second AfterWrite = %q, want nothing new", got)
	}
}

func TestAfterReadOpensFilesOnARunningServer(t *testing.T) {
	m, root := fakeManager(t, "silent", lsp.Options{Settle: time.Millisecond})
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The diagnostics tool waits for the server's start (a write would
	// not: its wait is bounded by the settle time, start included).
	newToolFixture(t, m).call(t, lsp.DiagnosticsName, lsp.DiagnosticsArgs{Path: "a.go"})
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	b := filepath.Join(root, "b.go")
	for _, text := range []string{"package a\n\nvar b = 1\n", "package a\n\nvar b = 2\n"} {
		m.AfterRead(ctx, b, text)
		if !m.Opened(b, text) {
			t.Fatalf("after AfterRead, the server does not hold %q", text)
		}
	}
}
