package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/sandbox"
	"github.com/dsh-acp/dsh-acp/tools/shell"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// A read-only child's commands run in a read-only sandbox whatever the
// session's preset allows, so a write its policy let through (a
// command whose parse looked read-only) still changes nothing — under a
// full-access session too, whose own commands run unconfined.
func TestReadOnlyChildShellWritesNothing(t *testing.T) {
	sb := sandbox.New()
	if !sb.Status().Available() {
		t.Skipf("this kernel offers no sandbox: %s", sb.Status().Summary())
	}
	for _, preset := range []policy.Preset{policy.WorkspaceWrite, policy.FullAccess} {
		t.Run(string(preset), func(t *testing.T) {
			// Not under a temporary directory: those are writable in every
			// sandbox.
			home, err := os.UserHomeDir()
			if err != nil {
				t.Skipf("no home directory for a workspace outside the temporary ones: %v", err)
			}
			dir, err := os.MkdirTemp(home, "dsh-subagent-test-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			ws, err := workspace.New(dir, nil, workspace.Local{})
			if err != nil {
				t.Fatal(err)
			}
			reg := registry.New()
			pol := policy.New(reg, ws, preset)
			cfg := Config{Sandbox: Sandbox{Sandbox: sb, Locations: sandbox.Locations{Home: t.TempDir()}}}
			sh, err := readOnlyShell(cfg, shell.Options{Sandbox: sb}, pol, ws)()
			if err != nil {
				t.Fatal(err)
			}
			defer sh.Close()
			scope := reg.NewScope("child", nil)
			defer scope.Close()
			for _, tool := range sh.Tools() {
				if _, err := reg.Register(scope, tool); err != nil {
					t.Fatal(err)
				}
			}
			// No policy in this pipeline: the sandbox alone stands.
			r := pipeline.New(reg, pipeline.Options{}).Execute(context.Background(), pipeline.Input{
				CallID: "c1", Name: "bash", Arguments: `{"command":"echo x > inside"}`, Scope: scope,
			})
			if _, err := os.Stat(filepath.Join(dir, "inside")); err == nil {
				t.Errorf("the read-only child's command wrote in the workspace: %s", presentation.JoinText(r.Content))
			}
			if text := presentation.JoinText(r.Content); !strings.Contains(text, "[sandbox: blocked changing") {
				t.Errorf("the result %q does not say the sandbox blocked it", text)
			}
		})
	}
}
