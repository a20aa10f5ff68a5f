package sandbox_test

import (
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/sandbox"
)

// The sockets named follow the environment; a relative or empty value
// names nothing.
func TestSockets(t *testing.T) {
	tests := []struct {
		name          string
		env           map[string]string
		daemon, agent []string
		notAgent      []string
	}{
		{
			name:   "a desktop session",
			env:    map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000", "SSH_AUTH_SOCK": "/tmp/ssh-x/agent.1"},
			daemon: []string{"/var/run/docker.sock", "/run/docker.sock", "/run/user/1000/docker.sock", "/run/user/1000/podman/podman.sock", "/home/u/.docker/run/docker.sock"},
			agent:  []string{"/tmp/ssh-x/agent.1", "/run/user/1000/gnupg"},
		},
		{
			name:     "no session",
			env:      map[string]string{"SSH_AUTH_SOCK": "relative/agent"},
			daemon:   []string{"/var/run/docker.sock", "/run/containerd/containerd.sock"},
			notAgent: []string{"relative/agent"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc := sandbox.Locations{Home: "/home/u", Getenv: func(k string) string { return tt.env[k] }}
			daemon, agent := loc.DaemonSockets(), loc.AgentSockets()
			for _, want := range tt.daemon {
				if !slices.Contains(daemon, want) {
					t.Errorf("DaemonSockets() = %q, lacks %q", daemon, want)
				}
			}
			for _, want := range tt.agent {
				if !slices.Contains(agent, want) {
					t.Errorf("AgentSockets() = %q, lacks %q", agent, want)
				}
			}
			for _, not := range tt.notAgent {
				if slices.Contains(agent, not) {
					t.Errorf("AgentSockets() = %q, holds %q", agent, not)
				}
			}
			if len(tt.agent) == 0 && len(agent) != 0 {
				t.Errorf("AgentSockets() = %q, want none", agent)
			}
		})
	}
}
