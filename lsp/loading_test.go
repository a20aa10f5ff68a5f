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

// loadingManager returns a Manager whose .go server is a loadingServer in
// mode, with a.go written, once the server reports it is loading.
func loadingManager(t *testing.T, mode string, opts lsp.Options) (*toolFixture, string) {
	t.Helper()
	m, root := fakeManager(t, mode, opts)
	path := filepath.Join(root, "a.go")
	if err := os.WriteFile(path, []byte("package a\n\nfunc f() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if err := m.WaitLoading(ctx, path); err != nil {
		t.Fatal(err)
	}
	return newToolFixture(t, m), root
}

// The tools asked while their server loads wait for its load: a server
// that refuses while it loads is asked again once it has finished, and
// one that holds requests far longer than the call timeout is waited
// for, since the time it spends loading does not count. (The refusing
// server gets a generous call timeout: its answer comes after its load,
// when the call timeout runs.)
func TestToolsWaitForALoadingServer(t *testing.T) {
	at := lsp.PositionArgs{FilePath: "a.go", Line: 1, Symbol: "a"}
	for _, mode := range []struct {
		name        string
		callTimeout time.Duration
	}{{loadingRefuse, hangGuard}, {loadingHold, fakeCallTimeout}} {
		for _, tt := range []struct {
			tool string
			args any
			want string
		}{
			{lsp.DefinitionName, at, "a.go:1:9: package a"},
			{lsp.ReferencesName, at, "a.go:1:9: package a"},
			{lsp.SymbolsName, lsp.SymbolsArgs{Query: "f"}, "a.go:1:9: function f package a"},
		} {
			t.Run(mode.name+"/"+tt.tool, func(t *testing.T) {
				f, _ := loadingManager(t, mode.name, lsp.Options{CallTimeout: mode.callTimeout, LoadTimeout: hangGuard})
				if got := text(t, f.call(t, tt.tool, tt.args)); got != tt.want {
					t.Errorf("%s = %q, want %q", tt.tool, got, tt.want)
				}
			})
		}
	}
}

// A server that never finishes loading holds no tool past its patience:
// each returns, as a result and not a failure, saying the server is still
// loading and what it is doing.
func TestToolsGiveUpOnAServerStillLoading(t *testing.T) {
	at := lsp.PositionArgs{FilePath: "a.go", Line: 1, Symbol: "a"}
	const loading = "fake is still loading (Setting up workspace: Loading packages...); gave up after waiting "
	for _, tt := range []struct {
		tool string
		args any
		want string
	}{
		{lsp.DefinitionName, at, loading},
		{lsp.ReferencesName, at, loading},
		{lsp.SymbolsName, lsp.SymbolsArgs{Query: "f"}, loading},
		{lsp.DiagnosticsName, lsp.DiagnosticsArgs{Path: "a.go"}, loading},
		{lsp.DiagnosticsName, lsp.DiagnosticsArgs{}, "fake is still loading (Setting up workspace: Loading packages...), so its list may be incomplete."},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			f, _ := loadingManager(t, loadingForever, lsp.Options{CallTimeout: fakeCallTimeout, Settle: fakeCallTimeout, LoadTimeout: fakeCallTimeout})
			r := f.call(t, tt.tool, tt.args)
			got := presentation.JoinText(r.Content)
			if r.IsError || !strings.Contains(got, tt.want) {
				t.Errorf("%s = %q (error %v), want a result saying %q", tt.tool, got, r.IsError, tt.want)
			}
		})
	}
}
