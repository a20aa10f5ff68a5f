package sandbox

import (
	"encoding/json"
	"fmt"
	"path/filepath"
)

// Policy says what a sandboxed command, and everything it starts, may do.
// Reads and program execution are allowed everywhere except DenyRead;
// changes (writing, creating, removing, renaming) only below Write.
type Policy struct {
	// Write are the files and directories the command may change, each
	// with everything below it. Paths that do not exist are skipped.
	Write []string `json:"write,omitempty"`
	// DenyRead are the files and directories the command may not read,
	// each with everything below it; where a Write root holds one, the
	// root is writable around it, never inside it (new entries of the
	// root itself cannot be made then). Where a mount namespace can be
	// made (Status.Mount) each is also covered by an empty stand-in, so a
	// directory's names cannot be listed; without one they can, the
	// contents stay unreadable.
	DenyRead []string `json:"deny_read,omitempty"`
	// Sockets are Unix sockets the command may not connect to (a
	// container daemon's, an agent's; see Locations.DaemonSockets). Where
	// a mount namespace can be made each is covered by an empty file;
	// elsewhere they stay reachable (Landlock before ABI 9 does not
	// govern connecting to a socket).
	Sockets []string `json:"sockets,omitempty"`
	// ReadOnly are directories the command may read but never change,
	// even inside a Write root: the .git directories of the workspace.
	// They are kept read-only only where a mount namespace can be made
	// (Status.Mount); elsewhere they stay as writable as their root.
	ReadOnly []string `json:"read_only,omitempty"`
	// Network lets the command reach the network; without it the command
	// has only a loopback interface of its own (a network namespace), or,
	// where none can be made, no TCP at all (Landlock).
	Network bool `json:"network,omitempty"`
}

// check reports a path that is not absolute: every path of a Policy must
// be, since the command may run anywhere.
func (p Policy) check() error {
	for _, list := range [][]string{p.Write, p.DenyRead, p.Sockets, p.ReadOnly} {
		for _, path := range list {
			if !filepath.IsAbs(path) {
				return fmt.Errorf("sandbox: policy path %q is not absolute", path)
			}
		}
	}
	return nil
}

// encode is the policy as the helper's argument.
func (p Policy) encode() (string, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("sandbox: encoding the policy: %w", err)
	}
	return string(data), nil
}

// decodePolicy is the inverse of encode.
func decodePolicy(s string) (Policy, error) {
	var p Policy
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		return Policy{}, fmt.Errorf("sandbox: decoding the policy: %w", err)
	}
	return p, p.check()
}
