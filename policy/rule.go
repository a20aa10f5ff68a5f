package policy

import (
	"slices"
	"strings"
	"time"

	"github.com/dsh-acp/dsh-acp/workspace"
)

// Rule is a remembered answer to a permission prompt: "always allow" or
// "always reject" something, for one project. It has one of three shapes:
//
//   - a command prefix for the bash tool (Command): every simple command
//     of a command line starting with these words;
//   - a directory for a file tool outside the workspace (Path): the tool's
//     calls whose paths all lie below it;
//   - a tool inside the workspace (neither): the tool's calls whose paths
//     all lie inside the workspace.
type Rule struct {
	// Allow is set for "always allow", unset for "always reject".
	Allow bool `json:"allow"`
	// Tool is the tool the rule is about.
	Tool string `json:"tool"`
	// Command is a bash rule's command prefix, word by word.
	Command []string `json:"command,omitempty"`
	// Path is an absolute directory, for a file tool outside the
	// workspace.
	Path string `json:"path,omitempty"`
	// Unsandboxed makes a bash rule about running its commands outside
	// the kernel sandbox (`sandbox: false`), which ordinary rules never
	// allow; such a rule answers only those calls. Rule files written
	// before it existed read as false.
	Unsandboxed bool `json:"unsandboxed,omitempty"`
	// Created is when the user made the rule.
	Created time.Time `json:"created"`
}

// Subject says what the rule covers, for the user: "`go test …`",
// "read under /etc", "edit in this project".
func (r Rule) Subject() string {
	switch {
	case len(r.Command) > 0 && r.Unsandboxed:
		return "`" + strings.Join(r.Command, " ") + " …` outside the sandbox"
	case len(r.Command) > 0:
		return "`" + strings.Join(r.Command, " ") + " …`"
	case r.Path != "":
		return r.Tool + " under " + r.Path
	default:
		return r.Tool + " in this project"
	}
}

// String says what the rule does: "allow `go test …`".
func (r Rule) String() string {
	if r.Allow {
		return "allow " + r.Subject()
	}
	return "reject " + r.Subject()
}

// sameSubject reports whether r and o cover the same calls (whatever
// they answer).
func (r Rule) sameSubject(o Rule) bool {
	return r.Tool == o.Tool && r.Path == o.Path && r.Unsandboxed == o.Unsandboxed && slices.Equal(r.Command, o.Command)
}

// coversPaths reports whether a file-tool rule covers a call of its tool
// touching paths (absolute, links followed by the caller), given whether
// each lies inside the workspace.
func (r Rule) coversPaths(paths []string, inside func(string) bool) bool {
	if len(r.Command) > 0 || len(paths) == 0 {
		return false
	}
	for _, p := range paths {
		if r.Path == "" {
			if !inside(p) {
				return false
			}
			continue
		}
		if !workspace.Within(p, r.Path) {
			return false
		}
	}
	return true
}
