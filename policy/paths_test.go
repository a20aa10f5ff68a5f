package policy_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/fs"
	"github.com/dsh-acp/dsh-acp/tools/search"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// TestRealToolsPaths runs the policy's decision on the real file and
// search tools: it must see where a call really goes. glob's walk root
// comes from its pattern (issue 7 item 3), a dangling link counts as its
// target (item 4), and a NUL byte in a path is refused under every preset
// (item 12).
func TestRealToolsPaths(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outdir")
	for _, d := range []string{filepath.Join(ws, "src"), filepath.Join(ws, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "new.txt"), filepath.Join(ws, "dangle")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "outlink")); err != nil {
		t.Fatal(err)
	}
	w, err := workspace.New(ws, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	fileTools, err := fs.Tools(w, fs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	searchTools, err := search.Tools(w, search.Options{NoRipgrep: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range append(fileTools, searchTools...) {
		if _, err := reg.Register(nil, tool); err != nil {
			t.Fatal(err)
		}
	}
	define(t, reg, "bash", registry.EffectExecute) // its workdir as "path"

	const (
		allow = pipeline.DecisionAllow
		ask   = pipeline.DecisionAsk
		deny  = pipeline.DecisionDeny
	)
	tests := []struct {
		preset policy.Preset
		tool   string
		args   string
		want   pipeline.DecisionKind
		reason string
	}{
		{policy.WorkspaceWrite, "glob", `{"pattern":"**/*.go"}`, allow, ""},
		{policy.WorkspaceWrite, "glob", `{"pattern":"src/*.go"}`, allow, ""},
		{policy.WorkspaceWrite, "glob", `{"pattern":"../outdir/*"}`, ask, "reads " + outside + ", outside the workspace"},
		{policy.WorkspaceWrite, "glob", `{"pattern":"/etc/host*"}`, ask, "reads /etc, outside the workspace"},
		{policy.WorkspaceWrite, "glob", `{"pattern":"sub/../../outdir/*"}`, ask, "outside the workspace"},
		{policy.WorkspaceWrite, "glob", `{"pattern":"../../ws/src/*","path":"sub"}`, allow, ""},
		{policy.WorkspaceWrite, "glob", `{"pattern":"outlink/*"}`, ask, "outside the workspace"},
		{policy.ReadOnly, "glob", `{"pattern":"../outdir/**"}`, ask, "outside the workspace"},
		{policy.WorkspaceWrite, "grep", `{"pattern":"x","include":"../outdir/*"}`, allow, ""},
		{policy.WorkspaceWrite, "grep", `{"pattern":"x","path":"../outdir"}`, ask, "outside the workspace"},
		{policy.WorkspaceWrite, "write", `{"file_path":"dangle","content":"x"}`, ask,
			"writes " + filepath.Join(ws, "dangle") + " (a link to " + filepath.Join(outside, "new.txt") + "), outside the workspace"},
		{policy.WorkspaceWrite, "edit", `{"file_path":"dangle","old_string":"","new_string":"x"}`, ask, "outside the workspace"},
		{policy.WorkspaceWrite, "read", `{"file_path":"dangle"}`, ask, "outside the workspace"},
		{policy.WorkspaceWrite, "write", `{"file_path":"a\u0000../../x","content":"x"}`, deny, `write: the path "a\x00../../x" contains a NUL byte`},
		{policy.FullAccess, "read", `{"file_path":"a\u0000b"}`, deny, "contains a NUL byte"},
		{policy.FullAccess, "glob", `{"pattern":"*","path":"a\u0000../.."}`, deny, "contains a NUL byte"},
		{policy.FullAccess, "bash", `{"path":"sub\u0000/../.."}`, deny, "contains a NUL byte"},
		{policy.FullAccess, "glob", `{"pattern":"../outdir/*"}`, allow, ""},
	}
	for _, tt := range tests {
		t.Run(string(tt.preset)+" "+tt.tool+" "+tt.args, func(t *testing.T) {
			pol := policy.New(reg, w, tt.preset)
			args, err := registry.MaterializeArguments(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			d := pol.Decide(registry.NewCall(registry.CallSpec{ID: "c", Name: tt.tool, Arguments: args}))
			if d.Kind != tt.want || !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("decision = %+v, want kind %v with reason containing %q", d, tt.want, tt.reason)
			}
		})
	}
}
