package release

import (
	"fmt"
	"strings"
)

// Target is one platform a release ships a binary for.
type Target struct {
	// Platform is the ACP registry's name for it: darwin-aarch64,
	// darwin-x86_64, linux-aarch64, linux-x86_64, windows-aarch64 or
	// windows-x86_64. Archive names carry it.
	Platform string
	// GOOS and GOARCH build it.
	GOOS, GOARCH string
}

// Targets returns every platform a release is built for, in the
// registry's order: the one list the archives, the npm packages, the
// registry entry and the VS Code packages are made from.
func Targets() []Target {
	return []Target{
		{Platform: "darwin-aarch64", GOOS: "darwin", GOARCH: "arm64"},
		{Platform: "darwin-x86_64", GOOS: "darwin", GOARCH: "amd64"},
		{Platform: "linux-aarch64", GOOS: "linux", GOARCH: "arm64"},
		{Platform: "linux-x86_64", GOOS: "linux", GOARCH: "amd64"},
		{Platform: "windows-aarch64", GOOS: "windows", GOARCH: "arm64"},
		{Platform: "windows-x86_64", GOOS: "windows", GOARCH: "amd64"},
	}
}

// ParseTargets returns the targets a comma-separated list of platforms
// names (e.g. "linux-x86_64,darwin-aarch64"), in Targets' order; "all"
// or "" is every one. An unknown name is an error.
func ParseTargets(list string) ([]Target, error) {
	if list == "" || list == "all" {
		return Targets(), nil
	}
	want := map[string]bool{}
	for _, p := range strings.Split(list, ",") {
		want[strings.TrimSpace(p)] = true
	}
	var out []Target
	for _, t := range Targets() {
		if want[t.Platform] {
			out = append(out, t)
			delete(want, t.Platform)
		}
	}
	for p := range want {
		return nil, fmt.Errorf("unknown platform %q (want some of %s)", p, platformNames())
	}
	return out, nil
}

// HostTarget returns the target of goos/goarch (runtime.GOOS and
// runtime.GOARCH for this machine); false when no release is built for it.
func HostTarget(goos, goarch string) (Target, bool) {
	for _, t := range Targets() {
		if t.GOOS == goos && t.GOARCH == goarch {
			return t, true
		}
	}
	return Target{}, false
}

func platformNames() string { return strings.Join(platformList(), ", ") }

func platformList() []string {
	var names []string
	for _, t := range Targets() {
		names = append(names, t.Platform)
	}
	return names
}

// Windows reports whether the target is a Windows one (.exe, .zip).
func (t Target) Windows() bool { return t.GOOS == "windows" }

// Executable is the binary's file name: dsh-acp, or dsh-acp.exe on Windows.
func (t Target) Executable() string {
	if t.Windows() {
		return "dsh-acp.exe"
	}
	return "dsh-acp"
}

// Archive is the release archive's file name for version:
// dsh-acp-<version>-<platform>.tar.gz, or .zip on Windows.
func (t Target) Archive(version string) string {
	ext := ".tar.gz"
	if t.Windows() {
		ext = ".zip"
	}
	return "dsh-acp-" + version + "-" + t.Platform + ext
}

// NodeOS and NodeCPU are Node's names for the target (process.platform
// and process.arch): npm's os and cpu fields, VS Code's targets.
func (t Target) NodeOS() string {
	if t.Windows() {
		return "win32"
	}
	return t.GOOS
}

// NodeCPU is Node's process.arch for the target: x64 or arm64.
func (t Target) NodeCPU() string {
	if t.GOARCH == "amd64" {
		return "x64"
	}
	return t.GOARCH
}

// NodePlatform is "<NodeOS>-<NodeCPU>", e.g. linux-x64: VS Code's target
// name (vsce package --target) and the npm platform package's suffix.
func (t Target) NodePlatform() string { return t.NodeOS() + "-" + t.NodeCPU() }

// NPMPackage is the platform package's name, @dsh-acp/<NodePlatform>:
// the name launcher.js derives from process.platform and process.arch.
func (t Target) NPMPackage() string { return npmScope + "/" + t.NodePlatform() }
