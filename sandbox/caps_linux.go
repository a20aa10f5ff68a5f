//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// droppedCaps are the capabilities a sandboxed command never has, not
// even as root: each reaches past Landlock's rules (reading another
// process's memory and environment, opening files by handle, loading
// kernel code, raw devices, changing mounts, network interfaces, security
// modules or the clock). Root keeps its ordinary file access
// (CAP_DAC_OVERRIDE, CAP_FOWNER, …).
var droppedCaps = []uintptr{
	unix.CAP_SYS_PTRACE, unix.CAP_DAC_READ_SEARCH, unix.CAP_SYS_MODULE, unix.CAP_SYS_RAWIO,
	unix.CAP_SYS_ADMIN, unix.CAP_SYS_BOOT, unix.CAP_SYS_TIME, unix.CAP_NET_ADMIN,
	unix.CAP_MAC_ADMIN, unix.CAP_MAC_OVERRIDE, unix.CAP_BPF, unix.CAP_PERFMON,
	unix.CAP_SYSLOG, unix.CAP_AUDIT_CONTROL, unix.CAP_LINUX_IMMUTABLE,
}

// dropCaps clears the ambient capabilities the helper was started with
// (in a user namespace, to set it up) and removes droppedCaps from the
// bounding set of the calling thread, so the program the helper runs
// never gains them. Capabilities are the thread's: the caller must be
// locked to its OS thread and exec or fork the program from it (runHelper
// does), which is why the other threads of the helper, which run only the
// Go runtime and never exec, are left as they are. A process without
// CAP_SETPCAP has none of them to lose (and cannot drop them): that is
// not an error.
func dropCaps() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clearing the ambient capabilities: %w", err)
	}
	for _, c := range droppedCaps {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0)
		switch {
		case err == nil:
		case errors.Is(err, unix.EPERM) && os.Geteuid() != 0:
			return nil
		case errors.Is(err, unix.EINVAL):
			// a capability this kernel does not know
		default:
			return fmt.Errorf("dropping capability %d: %w", c, err)
		}
	}
	return nil
}
