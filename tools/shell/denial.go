package shell

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/dsh-acp/dsh-acp/sandbox"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// maxBlocked is how many blocked things a denial marker names.
const maxBlocked = 3

// fileDenials are the error texts of a file access the sandbox refused
// (EACCES, EPERM, EROFS), lowercased.
var fileDenials = []string{"permission denied", "operation not permitted", "read-only file system"}

// hiddenTexts are the error texts of a path inside a credential location
// where the sandbox covered it with an empty stand-in (ENOENT), lowercased.
var hiddenTexts = []string{"no such file or directory"}

// networkDenials are the error texts of a connection the sandbox's
// network refused or could not make (no route but loopback, no name
// server), lowercased.
var networkDenials = []string{
	"network is unreachable", "network unreachable", "connection refused", "could not resolve host",
	"temporary failure in name resolution", "name or service not known", "no such host",
	"failed to resolve", "getaddrinfo", "eai_again", "enetunreach", "couldn't connect to server",
}

// pathInLine finds the paths an error line names: quoted ('…', "…", ‘…’)
// or bare words starting with "/".
var pathInLine = regexp.MustCompile(`['"‘]([^'"’]+)['"’]|(?:^|[\s:=(])(/[^\s:'"’,)]*)`)

// blockedBy says what the sandbox blocked, read from the output of a
// confined command that failed: a change or read outside what p allows, a
// connection while p has no network. It is "" when the command succeeded
// or its output shows no such refusal.
func blockedBy(r commandResult, p sandbox.Policy) string {
	return blockedIn(r.Stdout+"\n"+r.Stderr, exitStatus{code: r.ExitCode, signal: r.Signal}, p)
}

// blockedIn is blockedBy for a command's output as one text (a
// background job's, whose streams share one pipe) and how it ended.
func blockedIn(output string, exit exitStatus, p sandbox.Policy) string {
	if exit.code == 0 && exit.signal == "" {
		return ""
	}
	var found []string
	add := func(what string) {
		if len(found) < maxBlocked && !slices.Contains(found, what) {
			found = append(found, what)
		}
	}
	for line := range strings.Lines(output) {
		lower := strings.ToLower(line)
		if slices.ContainsFunc(fileDenials, func(d string) bool { return strings.Contains(lower, d) }) {
			if what, ok := fileBlocked(line, p); ok {
				add(what)
			}
			continue
		}
		if slices.ContainsFunc(hiddenTexts, func(d string) bool { return strings.Contains(lower, d) }) {
			if path, ok := pathNextTo(line, hiddenTexts); ok && under(path, p.DenyRead) {
				add("reading " + path + " (a credential location)")
			}
			continue
		}
		if !p.Network && slices.ContainsFunc(networkDenials, func(d string) bool { return strings.Contains(lower, d) }) {
			add("the network (a sandboxed command has only its own loopback interface)")
		}
	}
	if len(found) == 0 {
		return ""
	}
	return strings.Join(found, ", ")
}

// fileBlocked says what an EACCES/EPERM/EROFS line shows the sandbox
// blocked: a path outside the write roots, a credential location, a .git
// directory, a TCP connection (/dev/tcp), or an access it cannot name.
// The path is the one the error names: the last before the error text
// ("bash: line 1: /etc/x: Permission denied"), else the first after it
// (Python's "Permission denied: '/etc/x'"). ok is false when that path is
// one the command may change: the refusal came from elsewhere (file
// modes), not the sandbox.
func fileBlocked(line string, p sandbox.Policy) (string, bool) {
	path, found := pathNextTo(line, fileDenials)
	switch {
	case !found:
		return "a file access outside what the sandbox allows", true
	case strings.HasPrefix(path, "/dev/tcp/") || strings.HasPrefix(path, "/dev/udp/"):
		return "a network connection (" + path + ")", !p.Network
	case under(path, p.DenyRead):
		return "reading " + path + " (a credential location)", true
	case under(path, p.ReadOnly):
		return "changing " + path + " (a .git directory is read-only in the sandbox)", true
	case !under(path, p.Write):
		return "changing " + path + " (outside the workspace, the temporary directory and the caches)", true
	}
	return "", false
}

// pathNextTo is the absolute path an error line names next to the first
// of errTexts it holds (see fileBlocked).
func pathNextTo(line string, errTexts []string) (string, bool) {
	lower := strings.ToLower(line)
	at := -1
	for _, d := range errTexts {
		if i := strings.Index(lower, d); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	before, after := "", ""
	for _, m := range pathInLine.FindAllStringSubmatchIndex(line, -1) {
		start, end := m[2], m[3]
		if start < 0 {
			start, end = m[4], m[5]
		}
		path := line[start:end]
		if !filepath.IsAbs(path) {
			continue
		}
		if end <= at {
			before = path
		} else if after == "" {
			after = path
		}
	}
	if before != "" {
		return filepath.Clean(before), true
	}
	if after != "" {
		return filepath.Clean(after), true
	}
	return "", false
}

// under reports whether path is one of dirs or lies below one.
func under(path string, dirs []string) bool {
	for _, d := range dirs {
		if workspace.Under(d, path) {
			return true
		}
	}
	return false
}

// denialMarker is the line a result carries when the sandbox blocked
// something.
func denialMarker(blocked string) string {
	return "[sandbox: blocked " + blocked + "; if the command needs it, run it again with sandbox: false, which asks the user]"
}
