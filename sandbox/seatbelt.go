package sandbox

import (
	"path/filepath"
	"strings"
)

// seatbeltExec is macOS's program that runs a command under a Seatbelt
// profile.
const seatbeltExec = "/usr/bin/sandbox-exec"

// seatbeltProfile is p as a Seatbelt (SBPL) profile for sandbox-exec -p:
// everything denied but what follows; reads everywhere but p.DenyRead;
// writes only below p.Write (and never below p.ReadOnly or p.DenyRead);
// no network unless p.Network; signals and process inspection only
// within the sandbox. In SBPL a later rule wins over an earlier one,
// which is why the denials come after the allowances they narrow.
func seatbeltProfile(p Policy) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(deny default)\n")
	b.WriteString("(allow process-exec)\n(allow process-fork)\n")
	b.WriteString("(allow signal (target same-sandbox))\n(allow process-info* (target same-sandbox))\n")
	b.WriteString("(allow sysctl-read)\n(allow mach-lookup)\n(allow ipc-posix-shm)\n(allow ipc-posix-sem)\n")
	b.WriteString("(allow pseudo-tty)\n(allow file-ioctl)\n")
	b.WriteString("(allow file-read*)\n")
	writeFilter(&b, "allow file-write*", p.Write)
	writeFilter(&b, "deny file-write*", p.ReadOnly)
	writeFilter(&b, "deny file-read* file-write*", p.DenyRead)
	if p.Network {
		b.WriteString("(allow network*)\n")
	} else {
		// Local (Unix-domain) sockets only: no address on any network.
		b.WriteString("(allow network* (remote unix-socket))\n")
	}
	return b.String()
}

// writeFilter writes one rule (action with its operations) over the
// paths, each with everything below it; nothing for no paths.
func writeFilter(b *strings.Builder, action string, paths []string) {
	if len(paths) == 0 {
		return
	}
	b.WriteString("(" + action)
	for _, p := range paths {
		b.WriteString(" (subpath " + sbplString(filepath.Clean(p)) + ")")
	}
	b.WriteString(")\n")
}

// sbplString quotes s as an SBPL string literal.
func sbplString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
