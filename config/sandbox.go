package config

import (
	"path/filepath"
	"strings"
)

// Sandbox is the [sandbox] table: how the kernel sandbox that confines
// commands under read-only and workspace-write may be widened.
type Sandbox struct {
	// Network lets sandboxed commands reach the network (network = true).
	Network bool
	// Writable are more files and directories commands may change
	// (writable = [...]), beside the workspace, the temporary directories
	// and the toolchain caches; DenyRead are more that they may not read
	// (deny_read = [...]), beside the credential locations. Each is
	// absolute or starts with "~/" (the home directory, for the caller to
	// expand).
	Writable, DenyRead []string
}

type rawSandbox struct {
	Network  *bool    `toml:"network"`
	Writable []string `toml:"writable"`
	DenyRead []string `toml:"deny_read"`
}

// sandbox checks the [sandbox] table.
func (b *builder) sandbox(raw *rawSandbox) Sandbox {
	if raw == nil {
		return Sandbox{}
	}
	s := Sandbox{Writable: raw.Writable, DenyRead: raw.DenyRead}
	if raw.Network != nil {
		s.Network = *raw.Network
	}
	b.sandboxPaths("writable", raw.Writable)
	b.sandboxPaths("deny_read", raw.DenyRead)
	return s
}

// sandboxPaths checks that each path of sandbox.<key> is absolute or
// under ~/.
func (b *builder) sandboxPaths(key string, paths []string) {
	for _, p := range paths {
		if !filepath.IsAbs(p) && !strings.HasPrefix(p, "~/") {
			b.fail([]string{"sandbox", key}, "%q is neither absolute nor under ~/ (commands run in many directories)", p)
		}
	}
}
