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
	"github.com/dsh-acp/dsh-acp/workspace"
)

// attackWorkspace is a workspace on disk with the links the attacks of
// issue 16 use: shared, a link to a directory outside; secretlink, a link
// to a file outside; inlink, a link to a directory inside.
func attackWorkspace(t *testing.T) (*workspace.Workspace, string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside", "dir")
	for _, d := range []string{filepath.Join(ws, "sub", "inner"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"shared":     outside,
		"secretlink": filepath.Join(outside, "secret"),
		"inlink":     filepath.Join(ws, "sub", "inner"),
	} {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	w, err := workspace.New(ws, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	return w, base
}

type attackCase struct {
	preset  policy.Preset
	rules   []policy.Rule
	command string
	want    pipeline.DecisionKind
	reason  string
}

// runAttacks decides each command on ws with the bash tool.
func runAttacks(t *testing.T, ws *workspace.Workspace, tests []attackCase) {
	t.Helper()
	reg := registry.New()
	define(t, reg, "bash", registry.EffectExecute)
	for _, tt := range tests {
		preset := tt.preset
		if preset == "" {
			preset = policy.WorkspaceWrite
		}
		t.Run(string(preset)+" "+tt.command, func(t *testing.T) {
			book := policy.OpenRuleBook(t.TempDir(), ws.Cwd())
			for _, r := range tt.rules {
				if err := book.Add(r); err != nil {
					t.Fatal(err)
				}
			}
			d := policy.New(reg, ws, preset).WithRules(book).Decide(commandCall(t, tt.command))
			if d.Kind != tt.want || !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("decision = %+v, want %v with %q", d, tt.want, tt.reason)
			}
		})
	}
}

// TestWritesThroughLinkDotDot: a ".." after a link leaves where the link
// leads (issue 16 shape 2). The policy used to clean "shared/.." away as
// text, so these wrote outside the workspace without asking.
func TestWritesThroughLinkDotDot(t *testing.T) {
	ws, _ := attackWorkspace(t)
	const (
		allow = pipeline.DecisionAllow
		ask   = pipeline.DecisionAsk
	)
	runAttacks(t, ws, []attackCase{
		{command: "echo x > shared/../x", want: ask, reason: "outside the workspace"},
		{command: "echo x >| shared/../x", want: ask, reason: "outside the workspace"},
		{command: "echo x >> shared/../x", want: ask, reason: "outside the workspace"},
		{command: "echo x | tee shared/../x", want: ask, reason: "outside the workspace"},
		{command: "sort -o shared/../x names.txt", want: ask, reason: "outside the workspace"},
		{command: "cd -P shared/.. && echo x > x", want: ask, reason: "outside the workspace"},
		{command: "cd shared && echo x > ../x", want: ask, reason: "outside the workspace"},
		{command: "cd shared; cd ..; echo x > x", want: ask, reason: "outside the workspace"},
		{command: "echo x > inlink/../x", want: allow},
		{command: "echo x > sub/../x", want: allow},
		{command: "cd inlink && echo x > x", want: allow},
	})
}

// TestReadsThroughLinks: a literal path inside the workspace that a link
// leads outside of is a read outside (issue 16 shape 3), for operands,
// redirections and cd alike; the policy used to look only at paths that
// are absolute or climb with "..".
func TestReadsThroughLinks(t *testing.T) {
	ws, _ := attackWorkspace(t)
	const (
		allow = pipeline.DecisionAllow
		ask   = pipeline.DecisionAsk
	)
	runAttacks(t, ws, []attackCase{
		{command: "cat secretlink", want: ask, reason: "cat reads secretlink, outside the workspace"},
		{command: "cat shared/secret", want: ask, reason: "outside the workspace"},
		{command: "cat < shared/secret", want: ask, reason: "a redirection reads shared/secret, outside"},
		{command: "cd shared && cat secret", want: ask, reason: "cd reads shared, outside"},
		{command: "ls shared/", want: ask, reason: "outside the workspace"},
		{command: "cat shared/*", want: ask, reason: "cat reads shared/*, outside"},
		{command: "sed 'r secretlink' sub/x", want: ask, reason: "sed r reads secretlink"},
		{command: "cat */secret", want: ask, reason: "cat reads */secret, which matches " + ws.Cwd() + "/shared/secret, outside"},
		{command: "cat secret*", want: ask, reason: "which matches " + ws.Cwd() + "/secretlink, outside"},
		{command: "for f in *; do cat \"$f\"; done", want: ask, reason: "outside the workspace"},
		{command: "ls sub/* && cat sub/inner/*.txt", want: allow},
		{preset: policy.ReadOnly, command: "cat secretlink", want: ask, reason: "outside the workspace"},
		{command: "cat inlink/x sub/inner/y", want: allow},
		{command: "cd inlink && cat x", want: allow},
		{command: "ls sub/*", want: allow},
	})
}

// TestRejectRulesUnderFullAccess: a reject rule wins under every preset,
// also when the rejected command hides in a string or behind a name the
// parse cannot know (issue 16 shape 7).
func TestRejectRulesUnderFullAccess(t *testing.T) {
	ws, _ := attackWorkspace(t)
	rejectRm := []policy.Rule{{Tool: "bash", Command: []string{"rm"}}}
	const (
		allow = pipeline.DecisionAllow
		ask   = pipeline.DecisionAsk
		deny  = pipeline.DecisionDeny
	)
	full := policy.FullAccess
	runAttacks(t, ws, []attackCase{
		{preset: full, rules: rejectRm, command: "sh -c 'rm -rf x'", want: deny, reason: `"rm" is rejected`},
		{preset: full, rules: rejectRm, command: "bash -c 'rm -rf x'", want: deny, reason: `"rm" is rejected`},
		{preset: full, rules: rejectRm, command: "eval rm -rf x", want: deny, reason: `"rm" is rejected`},
		{preset: full, rules: rejectRm, command: "X=rm; $X -rf x", want: ask, reason: "could be a command a rule rejects"},
		{preset: full, rules: rejectRm, command: "eval \"$S\"", want: ask, reason: "could be a command a rule rejects"},
		{preset: full, rules: rejectRm, command: "echo 'ls &&' | sh", want: ask, reason: "could be a command a rule rejects"},
		{preset: full, rules: rejectRm, command: "echo 'unterminated", want: ask, reason: "cannot be parsed"},
		{rules: rejectRm, command: "sh -c 'rm -rf x'", want: deny, reason: `"rm" is rejected`},
		{preset: policy.ReadOnly, rules: rejectRm, command: "eval 'rm x'", want: deny, reason: `"rm" is rejected`},
		{preset: full, rules: rejectRm, command: "sh -c 'make all'", want: allow},
		{preset: full, command: "eval \"$S\"", want: allow},
		{preset: full, command: "echo 'unterminated", want: allow},
	})
}

// TestRepositoryLayoutWrites: a directory laid out like a repository is
// git's own, as a .git is (issue 16 shape 5): the write tool could build
// tools/HEAD, tools/config (core.fsmonitor=…), tools/objects/ and
// tools/refs/ without a prompt, and a "read-only" git run in tools then
// ran what the config named.
func TestRepositoryLayoutWrites(t *testing.T) {
	ws, _ := attackWorkspace(t)
	root := ws.Cwd()
	for _, d := range []string{"bare1", "bare2/objects", "proj/config", "fresh"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "bare1", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "bare1"), filepath.Join(root, "lnk")); err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	fileTools, err := fs.Tools(ws, fs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range fileTools {
		if _, err := reg.Register(nil, tool); err != nil {
			t.Fatal(err)
		}
	}
	const (
		allow = pipeline.DecisionAllow
		ask   = pipeline.DecisionAsk
	)
	for _, tt := range []struct {
		path string
		want pipeline.DecisionKind
	}{
		{"bare1/config", ask},
		{"bare1/objects/ab/cdef", ask},
		{"bare1/refs/heads/main", ask},
		{"bare1/hooks/post-checkout", ask},
		{"bare1/info/attributes", ask},
		{"bare1/packed-refs", ask},
		{"bare2/HEAD", ask},
		{"bare2/refs/heads/main", ask},
		{"lnk/config", ask},
		{"sub/.GIT/config", ask},
		{"fresh/HEAD", allow}, // the first piece of a layout
		{"proj/hooks/useAuth.ts", allow},
		{"proj/config/app.json", allow},
		{"bare1/README", allow},
	} {
		for _, tool := range []string{"write", "edit"} {
			t.Run(tool+" "+tt.path, func(t *testing.T) {
				raw := `{"file_path":"` + tt.path + `","content":"x"}`
				if tool == "edit" {
					raw = `{"file_path":"` + tt.path + `","old_string":"a","new_string":"b"}`
				}
				args, err := registry.MaterializeArguments(raw)
				if err != nil {
					t.Fatal(err)
				}
				d := policy.New(reg, ws, policy.WorkspaceWrite).Decide(registry.NewCall(registry.CallSpec{ID: "c", Name: tool, Arguments: args}))
				if d.Kind != tt.want || (tt.want == ask && !strings.Contains(d.Reason, "laid out like a repository")) {
					t.Errorf("decision = %+v, want %v", d, tt.want)
				}
			})
		}
	}
	runAttacks(t, ws, []attackCase{
		{command: "echo '[core]' > bare1/config", want: ask, reason: "laid out like one"},
		{command: "cd bare1 && echo x > config", want: ask, reason: "laid out like one"},
		{command: "echo x | tee lnk/hooks/pre-commit", want: ask, reason: "laid out like one"},
		{command: "mkdir -p bare2/refs/heads", want: ask, reason: "laid out like one",
			rules: []policy.Rule{{Allow: true, Tool: "bash", Command: []string{"mkdir"}}}},
		{command: "echo x > proj/hooks/x.ts", want: allow},
	})
}
