package shell

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/sandbox"
)

func TestBlockedBy(t *testing.T) {
	p := sandbox.Policy{Write: []string{"/ws", "/tmp"}, DenyRead: []string{"/home/me/.ssh"}, ReadOnly: []string{"/ws/.git"}}
	tests := []struct {
		name   string
		r      commandResult
		policy sandbox.Policy
		want   string
	}{
		{"a success says nothing", commandResult{Stderr: "x: Permission denied\n"}, p, ""},
		{"bash redirection", commandResult{ExitCode: 1, Stderr: "bash: line 1: /etc/x: Permission denied\n"}, p,
			"changing /etc/x (outside the workspace, the temporary directory and the caches)"},
		{"coreutils quotes", commandResult{ExitCode: 1, Stderr: "touch: cannot touch '/opt/y': Permission denied\n"}, p,
			"changing /opt/y (outside the workspace, the temporary directory and the caches)"},
		{"a credential read", commandResult{ExitCode: 1, Stderr: "cat: /home/me/.ssh/id_ed25519: Permission denied\n"}, p,
			"reading /home/me/.ssh/id_ed25519 (a credential location)"},
		{"a credential hidden by its stand-in", commandResult{ExitCode: 1, Stderr: "cat: /home/me/.ssh/id_ed25519: No such file or directory\n"}, p,
			"reading /home/me/.ssh/id_ed25519 (a credential location)"},
		{"a missing file elsewhere is not the sandbox", commandResult{ExitCode: 1, Stderr: "cat: /ws/nope: No such file or directory\n"}, p, ""},
		{"a .git change", commandResult{ExitCode: 1, Stderr: "bash: /ws/.git/config: Read-only file system\n"}, p,
			"changing /ws/.git/config (a .git directory is read-only in the sandbox)"},
		{"python", commandResult{ExitCode: 1, Stderr: "PermissionError: [Errno 13] Permission denied: '/usr/lib/x'\n"}, p,
			"changing /usr/lib/x (outside the workspace, the temporary directory and the caches)"},
		{"a file mode inside the workspace is not the sandbox", commandResult{ExitCode: 1, Stderr: "/usr/bin/bash: line 1: /ws/locked: Permission denied\n"}, p, ""},
		{"no path named", commandResult{ExitCode: 1, Stderr: "Operation not permitted\n"}, p, "a file access outside what the sandbox allows"},
		{"/dev/tcp", commandResult{ExitCode: 1, Stderr: "bash: /dev/tcp/1.2.3.4/80: Permission denied\n"}, p, "a network connection (/dev/tcp/1.2.3.4/80)"},
		{"an unreachable network", commandResult{ExitCode: 6, Stderr: "curl: (6) Could not resolve host: example.com\n"}, p,
			"the network (a sandboxed command has only its own loopback interface)"},
		{"the network allowed", commandResult{ExitCode: 6, Stderr: "curl: (6) Could not resolve host: example.com\n"},
			sandbox.Policy{Network: true}, ""},
		{"several, once each", commandResult{ExitCode: 1, Stdout: "connect: Network is unreachable\n", Stderr: "connect: Network is unreachable\nbash: /etc/x: Permission denied\n"}, p,
			"the network (a sandboxed command has only its own loopback interface), changing /etc/x (outside the workspace, the temporary directory and the caches)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := blockedBy(tt.r, tt.policy); got != tt.want {
				t.Errorf("blockedBy = %q, want %q", got, tt.want)
			}
		})
	}
}
