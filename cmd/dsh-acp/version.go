package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// baseVersion is the release this source tree is on its way to; a build
// that was given no version and records none says baseVersion.
const baseVersion = "0.1.0-dev"

// releaseVersion and releaseCommit are set by the release build
// (internal/release) with -ldflags "-X main.releaseVersion=… -X
// main.releaseCommit=…"; empty in every other build.
var (
	releaseVersion string
	releaseCommit  string
)

// buildIdentity is what a binary knows of where it came from.
type buildIdentity struct {
	// Version is the release (x.y.z), the module version `go install
	// …@v1.2.3` recorded, or baseVersion.
	Version string
	// Commit is the source revision, abbreviated to 12 hex digits; empty
	// when the build recorded none.
	Commit string
	// Modified is true when the build recorded a working tree with
	// uncommitted changes.
	Modified bool
	// Go is the toolchain that built the binary (runtime.Version).
	Go string
}

// identity returns this binary's identity: the values the release build
// injected, else what the Go toolchain recorded in the build info (`go
// install` records the module version, a build in a git checkout the
// commit).
func identity() buildIdentity {
	info, _ := debug.ReadBuildInfo()
	return identityOf(releaseVersion, releaseCommit, info)
}

// identityOf is identity with its inputs passed in, for tests.
func identityOf(injectedVersion, injectedCommit string, info *debug.BuildInfo) buildIdentity {
	id := buildIdentity{Version: baseVersion, Go: runtime.Version()}
	if info != nil {
		if info.GoVersion != "" {
			id.Go = info.GoVersion
		}
		if v := info.Main.Version; v != "" && v != "(devel)" {
			id.Version = v
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				id.Commit = s.Value
			case "vcs.modified":
				id.Modified = s.Value == "true"
			}
		}
	}
	if injectedVersion != "" {
		id.Version = injectedVersion
	}
	if injectedCommit != "" {
		id.Commit, id.Modified = injectedCommit, false
	}
	if len(id.Commit) > 12 {
		id.Commit = id.Commit[:12]
	}
	return id
}

// String is the one line `dsh-acp --version` prints, e.g.
// "dsh-acp 0.2.0 (commit 876f68a1b2c3, go1.26.8 linux/amd64)".
func (id buildIdentity) String() string {
	commit := id.Commit
	switch {
	case commit == "":
		commit = "unknown"
	case id.Modified:
		commit += "-modified"
	}
	return fmt.Sprintf("dsh-acp %s (commit %s, %s %s/%s)", id.Version, commit, id.Go, runtime.GOOS, runtime.GOARCH)
}

// clientVersion is the version told to clients (agentInfo.version): the
// version alone, with the commit after a "+" when the version is not a
// release's.
func (id buildIdentity) clientVersion() string {
	if id.Version == baseVersion && id.Commit != "" {
		return baseVersion + "+" + id.Commit
	}
	return id.Version
}

// version is this binary's clientVersion.
func version() string { return identity().clientVersion() }
