package lsp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/lsp"
)

// goplsVersion is the gopls the tests run against.
const goplsVersion = "v0.23.0"

// gopls returns the path of gopls goplsVersion, installing it with go
// install on first use into a directory under the Go build cache, which
// later runs (and the package's other tests) reuse.
func gopls(t testing.TB) string {
	t.Helper()
	cache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(cache)), "dsh-acp-gopls-"+goplsVersion)
	bin := filepath.Join(dir, "gopls")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "dsh-acp-gopls-install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("go", "install", "golang.org/x/tools/gopls@"+goplsVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install gopls %s (the LSP tests need it): %v\n%s", goplsVersion, err, out)
	}
	// Rename is atomic: a concurrent installer's result is as good as ours.
	if err := os.Rename(tmp, dir); err != nil && !exists(bin) {
		t.Fatalf("keep gopls: %v", err)
	}
	return bin
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// goServer is the gopls server configuration for the tests.
func goServer(t testing.TB) lsp.ServerConfig {
	return lsp.ServerConfig{Name: "gopls", Command: []string{gopls(t)}, Extensions: []string{".go"}, LanguageID: "go"}
}

// hangGuard bounds a test that waits on a language server; it is a guard
// against hangs, not a timing assertion.
const hangGuard = 2 * time.Minute

// goModule writes a small Go module into a temporary directory and
// returns its root.
func goModule(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	all := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}
	for k, v := range files {
		all[k] = v
	}
	for name, text := range all {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// newManager returns a Manager for root with gopls, closed when the test
// ends. Its tools wait for gopls to load the workspace (it says when it
// has, with $/progress) and then for its answer, with only hang guards as
// limits: a cold gopls on a loaded machine may take minutes.
func newManager(t testing.TB, root string, settle time.Duration, report ...func(string)) *lsp.Manager {
	t.Helper()
	opts := lsp.Options{Roots: []string{root}, Servers: []lsp.ServerConfig{goServer(t)}, Settle: settle,
		StartTimeout: hangGuard, CallTimeout: hangGuard, LoadTimeout: hangGuard}
	if len(report) > 0 {
		opts.Report = report[0]
	}
	m := lsp.New(opts)
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return m
}

// write writes text to path under root and tells m, as the write tool
// does, returning what AfterWrite reports.
func write(t testing.TB, m *lsp.Manager, root, name, text string) string {
	t.Helper()
	path := filepath.Join(root, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	return m.AfterWrite(ctx, path, text)
}

// reports keeps what a Manager reported (Options.Report); it is safe for
// concurrent use.
type reports struct {
	mu   sync.Mutex
	told []string
}

func (r *reports) add(message string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.told = append(r.told, message)
}

func (r *reports) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.told)
}
