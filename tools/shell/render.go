package shell

import (
	"strconv"
	"strings"
)

// renderResult builds the text the model reads of a command:
//
//  1. stdout;
//  2. then "[stderr]\n" and stderr, after a "\n" when stdout does not end
//     in one;
//  3. "(no output)" when both are empty;
//  4. then, each after a "\n": "[sandbox: blocked <what>; …]" when the
//     sandbox blocked something (denialMarker), "[timed out after <ms>ms]", then
//     "[killed by signal: <SIG>]" or, for a non-zero exit,
//     "[exit code: <N>]".
//
// A truncated stream ends in "\n[output truncated; full output: <path>]"
// (the path "(unavailable)" when no spill file exists; "the first <N>
// bytes of the output: <path>" when the output outgrew the spill file's
// limit), so the exit marker
// stays last, where presentResult looks for it. A started background job
// reads "started background job <id>".
func renderResult(r commandResult) string {
	if r.JobID != "" {
		return "started background job " + r.JobID
	}
	var b strings.Builder
	spill := spillRef{path: r.SpillPath, kept: r.SpillKept}
	stdoutText := withTruncation(r.Stdout, r.StdoutTruncated, spill)
	stderrText := withTruncation(r.Stderr, r.StderrTruncated, spill)
	b.WriteString(stdoutText)
	if stderrText != "" {
		if stdoutText != "" && !strings.HasSuffix(stdoutText, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("[stderr]\n")
		b.WriteString(stderrText)
	}
	if b.Len() == 0 {
		b.WriteString("(no output)")
	}
	if r.Blocked != "" {
		b.WriteString("\n" + denialMarker(r.Blocked))
	}
	if r.TimeoutMs > 0 {
		b.WriteString("\n[timed out after " + strconv.Itoa(r.TimeoutMs) + "ms]")
	}
	if marker := exitMarker(exitStatus{code: r.ExitCode, signal: r.Signal}); marker != "" {
		b.WriteString("\n" + marker)
	}
	return b.String()
}

// withTruncation appends the truncation marker to a truncated stream.
func withTruncation(text string, truncated bool, spill spillRef) string {
	if !truncated {
		return text
	}
	return text + "\n" + truncationMarker(spill)
}

// truncationMarker says where the output is.
func truncationMarker(spill spillRef) string {
	return "[output truncated; " + spill.String() + "]"
}

// exitMarker is "[killed by signal: <SIG>]", "[exit code: <N>]" for a
// non-zero exit, or "" for a clean exit.
func exitMarker(e exitStatus) string {
	switch {
	case e.signal != "":
		return "[killed by signal: " + e.signal + "]"
	case e.code != 0:
		return "[exit code: " + strconv.Itoa(e.code) + "]"
	}
	return ""
}

// parseExit reads the exit marker at the very end of raw, the inverse of
// renderResult: "\n[killed by signal: <SIG>]" gives the signal,
// "\n[exit code: <N>]" the code, and anything else exit code 0. body is
// raw without the marker. A marker not preceded by "\n" is not one.
func parseExit(raw string) (body string, exit exitStatus) {
	if !strings.HasSuffix(raw, "]") {
		return raw, exitStatus{}
	}
	// A marker holds no "\n", so only the last "\n[" can start one.
	start := strings.LastIndex(raw, "\n[")
	if start < 0 {
		return raw, exitStatus{}
	}
	marker := raw[start+2 : len(raw)-1]
	if sig, ok := strings.CutPrefix(marker, "killed by signal: "); ok && sig != "" && !strings.Contains(sig, "]") {
		return raw[:start], exitStatus{signal: sig}
	}
	if digits, ok := strings.CutPrefix(marker, "exit code: "); ok && isDigits(digits) {
		if code, err := strconv.Atoi(digits); err == nil {
			return raw[:start], exitStatus{code: code}
		}
	}
	return raw, exitStatus{}
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
