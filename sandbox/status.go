package sandbox

import (
	"fmt"
	"strings"
)

// Status is what the kernel lets the sandbox do, found once when the
// Sandbox is made. A zero Status is no sandbox at all.
type Status struct {
	// Landlock is the Landlock ABI version the commands are restricted
	// with: the kernel's, up to the newest this package asks for (7); 0
	// when the kernel has none (and then nothing is sandboxed).
	Landlock int
	// Seatbelt is set on macOS when commands run under a Seatbelt profile
	// (sandbox-exec): files and network as the policy says, signals and
	// process inspection only within the sandbox.
	Seatbelt bool
	// PID, Mount and Net say which namespaces each command gets: its own
	// process ids (with a /proc that shows only its processes, when Mount
	// is set too), its own mounts (.git read-only), its own network (only
	// a loopback interface).
	PID, Mount, Net bool
	// User is set when the namespaces are made inside a user namespace
	// (an unprivileged dsh-acp); root needs none.
	User bool
	// Missing says, for each piece that could not be had, why.
	Missing []string
}

// Available reports whether commands can be sandboxed at all: the kernel
// has Landlock, or macOS's Seatbelt is there. Without either every
// command runs unconfined, and callers ask before each one that is not
// read-only.
func (s Status) Available() bool { return s.Landlock > 0 || s.Seatbelt }

// enforced names what confines the commands: the Landlock ABI and the
// namespaces, "Landlock ABI 7; PID, mount and network namespaces".
func (s Status) enforced() string {
	var names []string
	for _, ns := range []struct {
		have bool
		name string
	}{{s.PID && s.Mount, "PID"}, {s.Mount, "mount"}, {s.Net, "network"}} {
		if ns.have {
			names = append(names, ns.name)
		}
	}
	switch len(names) {
	case 0:
		return fmt.Sprintf("Landlock ABI %d; no namespaces", s.Landlock)
	case 1:
		return fmt.Sprintf("Landlock ABI %d; a %s namespace", s.Landlock, names[0])
	}
	last := len(names) - 1
	return fmt.Sprintf("Landlock ABI %d; %s and %s namespaces", s.Landlock, strings.Join(names[:last], ", "), names[last])
}

// Summary is one paragraph for the user and the model: what the sandbox
// enforces here and what it cannot.
func (s Status) Summary() string {
	if !s.Available() {
		why := "the kernel has no Landlock"
		if len(s.Missing) > 0 {
			why = strings.Join(s.Missing, "; ")
		}
		return fmt.Sprintf("No kernel sandbox is available (%s): commands run unconfined, so every command that is not read-only asks first.", why)
	}
	if s.Seatbelt {
		return "Commands run in a Seatbelt sandbox (macOS sandbox-exec): they may change files only in the workspace, the temporary directories and the toolchain caches, may not read credential files (~/.ssh, ~/.aws, …), have no network, and may signal and inspect only their own processes. The workspace's .git directories are read-only to them."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Commands run in a kernel sandbox (%s): they may change files only in the workspace, the temporary directories and the toolchain caches, and may not read credential files (~/.ssh, ~/.aws, …)", s.enforced())
	if s.Mount {
		b.WriteString(", nor list what those directories hold.")
	} else {
		b.WriteString(" (they can list the names in those directories: no mount namespace hides them).")
	}
	switch {
	case s.Net:
		b.WriteString(" They have no network but their own loopback interface.")
	case s.Landlock >= 4:
		b.WriteString(" They may not open network sockets (no network namespace could be made: seccomp refuses every socket but Unix-domain ones, and Landlock refuses TCP).")
	default:
		b.WriteString(" They may not open network sockets (no network namespace could be made: seccomp refuses every socket but Unix-domain ones).")
	}
	switch {
	case s.PID && s.Mount:
		b.WriteString(" They see only their own processes.")
	case s.Landlock >= 6:
		b.WriteString(" They can see other processes, but not signal them or read their environment or memory.")
	default:
		b.WriteString(" They can see and signal other processes of the user (Landlock ABI 6 scopes signals), but not read their environment or memory.")
	}
	if s.Mount {
		b.WriteString(" The workspace's .git directories are read-only to them, and they cannot connect to a container daemon's socket (Docker, Podman, containerd).")
	} else {
		b.WriteString(" The workspace's .git directories stay writable to them, and a container daemon's socket (Docker, Podman, containerd) stays reachable (no mount namespace).")
	}
	for _, m := range s.Missing {
		b.WriteString(" " + m)
	}
	return b.String()
}
