package sandbox

import "testing"

func TestSeatbeltProfile(t *testing.T) {
	// base is what every profile starts with: all denied, then programs,
	// processes of the sandbox and reads allowed.
	const base = `(version 1)
(deny default)
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow sysctl-read)
(allow mach-lookup)
(allow ipc-posix-shm)
(allow ipc-posix-sem)
(allow pseudo-tty)
(allow file-ioctl)
(allow file-read*)
`
	tests := []struct {
		name string
		p    Policy
		want string
	}{
		{"no network, a workspace, a key and a .git", Policy{
			Write:    []string{"/Users/me/project", "/private/tmp"},
			DenyRead: []string{"/Users/me/.ssh"},
			ReadOnly: []string{"/Users/me/project/.git"},
		}, base + `(allow file-write* (subpath "/Users/me/project") (subpath "/private/tmp"))
(deny file-write* (subpath "/Users/me/project/.git"))
(deny file-read* file-write* (subpath "/Users/me/.ssh"))
(allow network* (remote unix-socket))
`},
		{"the network allowed, nothing writable, a path to quote", Policy{
			Network:  true,
			DenyRead: []string{`/Users/me/we"ird\dir/`},
		}, base + `(deny file-read* file-write* (subpath "/Users/me/we\"ird\\dir"))
(allow network*)
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := seatbeltProfile(tt.p); got != tt.want {
				t.Errorf("profile =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
