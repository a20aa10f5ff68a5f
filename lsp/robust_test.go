//go:build unix

package lsp_test

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/dsh-acp/dsh-acp/lsp"
)

func TestMissingServerIsANoteOnceNeverAnError(t *testing.T) {
	root := t.TempDir()
	m := lsp.New(lsp.Options{Roots: []string{root}, Servers: []lsp.ServerConfig{
		{Name: "pyright-langserver", Command: []string{"dsh-acp-test-no-such-server", "--stdio"}, Extensions: []string{".py"}, LanguageID: "python"},
	}})
	defer m.Close()
	f := newToolFixture(t, m)

	want := "Note: no language server for .py files: install dsh-acp-test-no-such-server (not found on PATH)."
	if got := write(t, m, root, "a.py", "x = 1\n"); got != want {
		t.Fatalf("first write: AfterWrite = %q, want %q", got, want)
	}
	if got := write(t, m, root, "b.py", "x = 1\n"); got != "" {
		t.Fatalf("second write: AfterWrite = %q, want the note only once", got)
	}
	if got := write(t, m, root, "notes.txt", "hello\n"); got != "" {
		t.Fatalf("a file no server serves: AfterWrite = %q, want nothing", got)
	}
	got := text(t, f.call(t, lsp.DefinitionName, lsp.PositionArgs{FilePath: "a.py", Line: 1, Symbol: "x"}))
	if !strings.Contains(got, "no language server for .py files") {
		t.Fatalf("definition without a server = %q, want the reason", got)
	}
	if got := text(t, f.call(t, lsp.SymbolsName, lsp.SymbolsArgs{Query: "x"})); !strings.Contains(got, "no language server runs") {
		t.Fatalf("symbols without a server = %q, want the reason", got)
	}
}

// TestServerThatFailsToStartIsANote: the model reads a note naming the
// server and its stderr, and the user is told once that the server is
// off (Report).
func TestServerThatFailsToStartIsANote(t *testing.T) {
	root := t.TempDir()
	var told reports
	m := lsp.New(lsp.Options{Roots: []string{root}, Servers: []lsp.ServerConfig{
		{Name: "broken", Command: []string{"sh", "-c", "echo 'broken: cannot start' >&2; exit 3"}, Extensions: []string{".go"}, LanguageID: "go"},
	}, Report: told.add})
	defer m.Close()
	got := write(t, m, root, "a.go", "package a\n")
	if !strings.HasPrefix(got, "Note: initialize broken:") || !strings.Contains(got, "broken: cannot start") {
		t.Fatalf("AfterWrite = %q, want a note naming the server and its stderr", got)
	}
	write(t, m, root, "b.go", "package a\n")
	if reports := told.list(); len(reports) != 1 || !strings.HasPrefix(reports[0], "Language server broken could not start; language features for its files are off") ||
		!strings.Contains(reports[0], "broken: cannot start") {
		t.Errorf("reports = %q, want one naming the server, that it is off, and its stderr", reports)
	}
}

func TestCrashedServerIsRestartedOnceThenANote(t *testing.T) {
	root := goModule(t, map[string]string{"main.go": goodMain})
	var told reports
	m := newManager(t, root, hangGuard, told.add)
	if got := write(t, m, root, "main.go", goodMain); got != "" {
		t.Fatalf("AfterWrite = %q", got)
	}
	kill(t, m)
	// The restart brings a working server back.
	broken := strings.Replace(goodMain, "greeting()", "greting()", 1)
	if got := write(t, m, root, "main.go", broken); !strings.Contains(got, "undefined: greting") {
		t.Fatalf("after one crash: AfterWrite = %q, want the error from the restarted server", got)
	}
	kill(t, m)
	got := write(t, m, root, "main.go", goodMain)
	if !strings.Contains(got, "gopls stopped again after a restart") {
		t.Fatalf("after a second crash: AfterWrite = %q, want the note", got)
	}
	if got := write(t, m, root, "main.go", broken); got != "" {
		t.Fatalf("after the note: AfterWrite = %q, want nothing more", got)
	}
	if got := told.list(); len(got) != 1 || !strings.HasPrefix(got[0], "Language server gopls stopped again after a restart; language features for its files are off") {
		t.Errorf("reports = %q, want one saying gopls is off", got)
	}
}

// kill kills the Manager's one server and waits until it is gone.
func kill(t *testing.T, m *lsp.Manager) {
	t.Helper()
	pids := m.PIDs()
	if len(pids) != 1 {
		t.Fatalf("servers running: %v, want one", pids)
	}
	if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	m.WaitStopped(pids[0])
}

func TestCloseLeavesNoProcess(t *testing.T) {
	root := goModule(t, map[string]string{"main.go": goodMain})
	m := lsp.New(lsp.Options{Roots: []string{root}, Servers: []lsp.ServerConfig{goServer(t)}, StartTimeout: hangGuard})
	f := newToolFixture(t, m)
	text(t, f.call(t, lsp.DiagnosticsName, lsp.DiagnosticsArgs{Path: filepath.Join(root, "main.go")}))
	pids := m.PIDs()
	if len(pids) != 1 {
		t.Fatalf("servers running: %v, want one", pids)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	// Close reaps the server, so its process id is gone: no process, no zombie.
	if err := syscall.Kill(pids[0], 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("after Close, kill -0 %d = %v, want ESRCH", pids[0], err)
	}
	if got := write(t, m, root, "main.go", goodMain); got != "" {
		t.Fatalf("AfterWrite after Close = %q, want nothing", got)
	}
	if len(m.PIDs()) != 0 {
		t.Fatalf("a server started after Close: %v", m.PIDs())
	}
}
