package app

import (
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/sandbox"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// A command may never connect to a container daemon's socket (root on
// the machine); to the ssh agent's only when the configuration gives it
// the network, where git over ssh needs it.
func TestPolicyDeniesTheSockets(t *testing.T) {
	dir := t.TempDir()
	ws, err := workspace.New(dir, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"SSH_AUTH_SOCK": "/tmp/ssh-x/agent.1"}
	loc := sandbox.Locations{Home: t.TempDir(), Getenv: func(k string) string { return env[k] }}
	for _, tt := range []struct {
		network, agentDenied bool
	}{{false, true}, {true, false}} {
		for _, preset := range []policy.Preset{policy.ReadOnly, policy.WorkspaceWrite} {
			p, confined := Sandbox{Locations: loc, Network: tt.network}.policyFor(preset, ws, "", dir)
			if !confined {
				t.Fatalf("%v: not confined", preset)
			}
			if !slices.Contains(p.Sockets, "/var/run/docker.sock") || !slices.Contains(p.Sockets, "/run/docker.sock") {
				t.Errorf("%v, network %v: the Docker socket is not denied: %q", preset, tt.network, p.Sockets)
			}
			if denied := slices.Contains(p.Sockets, "/tmp/ssh-x/agent.1"); denied != tt.agentDenied {
				t.Errorf("%v, network %v: the ssh agent denied %v, want %v", preset, tt.network, denied, tt.agentDenied)
			}
		}
	}
}

// Commands in plan mode run in the read-only sandbox: the workspace is
// not writable to them, whatever the policy let through.
func TestPlanModeSandboxWritesNoWorkspace(t *testing.T) {
	dir := t.TempDir()
	ws, err := workspace.New(dir, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	loc := sandbox.Locations{Home: t.TempDir(), Getenv: func(string) string { return "" }}
	for _, tt := range []struct {
		preset   policy.Preset
		writable bool
	}{{policy.Plan, false}, {policy.ReadOnly, false}, {policy.WorkspaceWrite, true}} {
		p, confined := Sandbox{Locations: loc}.policyFor(tt.preset, ws, "", dir)
		if !confined {
			t.Fatalf("%v: not confined", tt.preset)
		}
		if got := slices.Contains(p.Write, dir); got != tt.writable {
			t.Errorf("%v: the workspace writable = %v, want %v (%q)", tt.preset, got, tt.writable, p.Write)
		}
	}
}
