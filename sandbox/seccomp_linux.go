//go:build linux

package sandbox

import (
	"fmt"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"
)

// denyNetworkSockets makes the calls that open a network socket fail
// with EPERM, for this process's threads and everything they start: a
// socket(2) of any family but Unix-domain (UDP, raw, packet, netlink —
// what Landlock's TCP rules do not cover), and io_uring_setup(2), whose
// rings could open sockets past the filter. It is the network's fence
// where no network namespace could be made.
func denyNetworkSockets() error {
	filter := seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{{
				Action: seccomp.ActionErrno,
				Names:  []string{"io_uring_setup"},
				NamesWithCondtions: []seccomp.NameWithConditions{{
					Name:       "socket",
					Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_UNIX}},
				}},
			}},
		},
	}
	if err := seccomp.LoadFilter(filter); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	return nil
}
