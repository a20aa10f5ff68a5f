package shell

// commandResult is the bash tool's canonical value: what a foreground
// command printed and how it ended, or (JobID set, the rest zero) the
// background job a command started as.
type commandResult struct {
	// Stdout and Stderr are the streams as kept (see capture.text).
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	// StdoutTruncated and StderrTruncated say a stream lost bytes;
	// SpillPath then holds the full output ("" when it could not be
	// written), or only its first SpillKept bytes when SpillKept is set.
	StdoutTruncated bool   `json:"stdoutTruncated,omitempty"`
	StderrTruncated bool   `json:"stderrTruncated,omitempty"`
	SpillPath       string `json:"spillPath,omitempty"`
	SpillKept       int64  `json:"spillKept,omitempty"`
	// ExitCode is the exit code when Signal is "".
	ExitCode int `json:"exitCode"`
	// Signal names the signal that killed the shell ("SIGTERM").
	Signal string `json:"signal,omitempty"`
	// Blocked says what the sandbox blocked, when the output of a
	// confined command that failed shows it ("" otherwise).
	Blocked string `json:"sandboxBlocked,omitempty"`
	// TimeoutMs is the timeout that ended the command, or 0.
	TimeoutMs int `json:"timeoutMs,omitempty"`
	// JobID is the background job the command started as.
	JobID string `json:"jobId,omitempty"`
}

// truncated reports whether either stream lost bytes.
func (r commandResult) truncated() bool { return r.StdoutTruncated || r.StderrTruncated }
