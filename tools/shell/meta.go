package shell

import "encoding/json"

// resultMeta is the bash tool's presentation meta: how a command ended,
// in structure, so no consumer has to parse markers out of text. As JSON:
// {"exitCode"?: int, "signal"?: string, "timedOut"?: true,
// "truncated"?: true, "jobId"?: string}; exactly one of exitCode and
// signal is present for a foreground command, neither for a started job.
type resultMeta struct {
	ExitCode  *int   `json:"exitCode,omitempty"`
	Signal    string `json:"signal,omitempty"`
	TimedOut  bool   `json:"timedOut,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	JobID     string `json:"jobId,omitempty"`
}

// metaOf projects a command's value to its meta.
func metaOf(r commandResult) resultMeta {
	if r.JobID != "" {
		return resultMeta{JobID: r.JobID}
	}
	m := resultMeta{Signal: r.Signal, TimedOut: r.TimeoutMs > 0, Truncated: r.truncated()}
	if r.Signal == "" {
		code := r.ExitCode
		m.ExitCode = &code
	}
	return m
}

// exitFromMeta reads the exit from meta text; ok is false when the meta is
// absent, malformed, or carries no exit.
func exitFromMeta(meta string) (exit exitStatus, ok bool) {
	if meta == "" {
		return exitStatus{}, false
	}
	var m resultMeta
	if err := json.Unmarshal([]byte(meta), &m); err != nil {
		return exitStatus{}, false
	}
	switch {
	case m.Signal != "":
		return exitStatus{signal: m.Signal}, true
	case m.ExitCode != nil:
		return exitStatus{code: *m.ExitCode}, true
	}
	return exitStatus{}, false
}
