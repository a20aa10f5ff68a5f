package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/sandbox"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// Sandbox is how every session's commands are confined under read-only
// and workspace-write.
type Sandbox struct {
	// Sandbox confines the commands. Nil runs them unconfined with the
	// policy of a sandboxed process (for tests of other things); a
	// Sandbox whose kernel offers none makes every command that changes
	// something ask.
	Sandbox *sandbox.Sandbox
	// Locations name the user's home, caches and credential locations.
	Locations sandbox.Locations
	// Network lets sandboxed commands reach the network.
	Network bool
	// Writable are more places commands may change under workspace-write;
	// DenyRead more that they may not read (dsh-acp's credentials file,
	// say). Each is absolute.
	Writable, DenyRead []string
}

// available reports whether the sandbox is in use and can confine.
func (s Sandbox) available() bool {
	return s.Sandbox != nil && s.Sandbox.Status().Available()
}

// policyFor is the sandbox policy of a command running in dir under
// preset, for the workspace ws and the state directory stateDir (never
// readable: it holds every session's log); confined is false under
// full-access. workspace-write may change the workspace roots, the
// temporary directories, the device files, the toolchain caches and
// Writable; read-only and plan only the temporary directories and the
// device files. Neither may read the credential locations, DenyRead or the state
// directory, nor change a .git directory of the workspace, nor connect to
// a container daemon's socket, nor, without the network, to the ssh and
// gpg agents' (the last three where the kernel gives a mount namespace).
func (s Sandbox) policyFor(preset policy.Preset, ws *workspace.Workspace, stateDir, dir string) (p sandbox.Policy, confined bool) {
	if preset == policy.FullAccess {
		return sandbox.Policy{}, false
	}
	p.Network = s.Network
	p.Write = append(sandbox.TempDirs(), sandbox.Devices()...)
	if !preset.ChangesNothing() {
		p.Write = append(p.Write, ws.Roots()...)
		p.Write = append(p.Write, s.Locations.Caches()...)
		p.Write = append(p.Write, s.Writable...)
	}
	p.DenyRead = append(s.Locations.Credentials(), s.DenyRead...)
	p.Sockets = s.Locations.DaemonSockets()
	if !s.Network {
		// Without the network nothing needs the agents (git over ssh
		// does); a command would only sign with the user's keys.
		p.Sockets = append(p.Sockets, s.Locations.AgentSockets()...)
	}
	if stateDir != "" {
		p.DenyRead = append(p.DenyRead, stateDir)
	}
	p.ReadOnly = gitDirs(ws, dir)
	return p, true
}

// gitDirs are the git directories a command in dir could change: the
// .git of each workspace root and of the repository holding dir, when it
// lies inside the workspace (a .git file, as in a worktree, names its
// directory).
func gitDirs(ws *workspace.Workspace, dir string) []string {
	var out []string
	add := func(root string) {
		if d, ok := gitDirAt(root); ok && ws.Contains(d) && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	for _, root := range ws.Roots() {
		add(root)
	}
	for d := dir; ws.Contains(d); d = filepath.Dir(d) {
		if _, ok := gitDirAt(d); ok {
			add(d)
			break
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	return out
}

// gitDirAt is the git directory of a repository whose top is dir: dir/.git,
// or the directory a .git file names.
func gitDirAt(dir string) (string, bool) {
	dotGit := filepath.Join(dir, ".git")
	info, err := os.Stat(dotGit)
	switch {
	case err != nil:
		return "", false
	case info.IsDir():
		return dotGit, true
	}
	data, err := os.ReadFile(dotGit)
	if err != nil {
		return "", false
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	return filepath.Clean(target), true
}

// notice is what the user is told at the session's start when the
// sandbox cannot do all it should here; "" when it can.
func (s Sandbox) notice() string {
	if s.Sandbox == nil {
		return ""
	}
	st := s.Sandbox.Status()
	if st.Available() && len(st.Missing) == 0 {
		return ""
	}
	return st.Summary()
}

// instructions is what the model is told of the sandbox.
func (s Sandbox) instructions() string {
	if s.Sandbox == nil {
		return ""
	}
	summary := s.Sandbox.Status().Summary()
	if s.Network && s.available() {
		summary += " The configuration lets them reach the network."
	}
	return summary + " Under full-access commands run outside the sandbox."
}
