package shell

import (
	"testing"
)

func TestRenderResult(t *testing.T) {
	tests := []struct {
		name string
		in   commandResult
		want string
	}{
		{"clean exit keeps stdout as is", commandResult{Stdout: "hi\n"}, "hi\n"},
		{"no output", commandResult{}, "(no output)"},
		{"S12 stderr only has no stdout prefix", commandResult{Stderr: "boom\n", ExitCode: 1}, "[stderr]\nboom\n\n[exit code: 1]"},
		{"S13 a newline separates unterminated stdout from stderr", commandResult{Stdout: "out", Stderr: "err"}, "out\n[stderr]\nerr"},
		{"stdout ending in a newline gets no extra separator", commandResult{Stdout: "out\n", Stderr: "err"}, "out\n[stderr]\nerr"},
		{"S14 exit marker after unterminated output starts a new line", commandResult{Stdout: "oops", ExitCode: 3}, "oops\n[exit code: 3]"},
		{"exit marker after terminated output", commandResult{Stdout: "oops\n", ExitCode: 3}, "oops\n\n[exit code: 3]"},
		{"exit marker after no output", commandResult{ExitCode: 2}, "(no output)\n[exit code: 2]"},
		{"S15 a signal without a timeout has no timeout marker", commandResult{Stdout: "gone", Signal: "SIGKILL"}, "gone\n[killed by signal: SIGKILL]"},
		{"S16 a trapped timeout that exits 0 has no kill marker", commandResult{Stdout: "slow", TimeoutMs: 100}, "slow\n[timed out after 100ms]"},
		{"S17 the timeout marker comes before the kill marker", commandResult{Stdout: "slow", TimeoutMs: 100, Signal: "SIGTERM"}, "slow\n[timed out after 100ms]\n[killed by signal: SIGTERM]"},
		{"S17 the timeout marker comes before the exit marker", commandResult{Stdout: "slow", TimeoutMs: 100, ExitCode: 143}, "slow\n[timed out after 100ms]\n[exit code: 143]"},
		{"S19 the sandbox denial marker comes before the timeout and exit markers", commandResult{Stderr: "x: Permission denied\n", Blocked: "changing /etc/x", TimeoutMs: 100, ExitCode: 1},
			"[stderr]\nx: Permission denied\n\n[sandbox: blocked changing /etc/x; if the command needs it, run it again with sandbox: false, which asks the user]\n[timed out after 100ms]\n[exit code: 1]"},
		{"S18 truncation without a spill file is unavailable", commandResult{Stdout: "head", StdoutTruncated: true}, "head\n[output truncated; full output: (unavailable)]"},
		{"truncation names the spill file, before the exit marker", commandResult{Stdout: "head\n", StdoutTruncated: true, SpillPath: "/tmp/x.log", ExitCode: 1}, "head\n\n[output truncated; full output: /tmp/x.log]\n[exit code: 1]"},
		{"a truncated stderr carries its own marker", commandResult{Stdout: "a\n", Stderr: "b", StderrTruncated: true, SpillPath: "/s"}, "a\n[stderr]\nb\n[output truncated; full output: /s]"},
		{"background start", commandResult{JobID: "job_4"}, "started background job job_4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderResult(tt.in); got != tt.want {
				t.Errorf("renderResult = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseExit(t *testing.T) {
	tests := []struct {
		name     string
		raw      string
		wantBody string
		want     exitStatus
	}{
		{"S2 clean output keeps its newlines", "hi\n\n", "hi\n\n", exitStatus{}},
		{"S3 exit code", "oops\n[exit code: 3]", "oops", exitStatus{code: 3}},
		{"S3 signal", "gone\n[killed by signal: SIGKILL]", "gone", exitStatus{signal: "SIGKILL"}},
		{"S4 the timeout marker stays", "slow\n[timed out after 100ms]\n[exit code: 143]", "slow\n[timed out after 100ms]", exitStatus{code: 143}},
		{"S4 a lone timeout marker is exit 0", "slow\n[timed out after 100ms]", "slow\n[timed out after 100ms]", exitStatus{}},
		{"S6 marker without a leading newline is not parsed", "[exit code: 5]", "[exit code: 5]", exitStatus{}},
		{"S6 signal marker without a leading newline", "x[killed by signal: SIGTERM]", "x[killed by signal: SIGTERM]", exitStatus{}},
		{"marker not at the very end", "a\n[exit code: 5]\n", "a\n[exit code: 5]\n", exitStatus{}},
		{"non-numeric code", "a\n[exit code: x]", "a\n[exit code: x]", exitStatus{}},
		{"empty signal", "a\n[killed by signal: ]", "a\n[killed by signal: ]", exitStatus{}},
		{"explicit exit code 0 is stripped", "a\n[exit code: 0]", "a", exitStatus{}},
		{"truncation marker stays", "a\n[output truncated; full output: /x]\n[exit code: 1]", "a\n[output truncated; full output: /x]", exitStatus{code: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, got := parseExit(tt.raw)
			if body != tt.wantBody || got != tt.want {
				t.Errorf("parseExit(%q) = %q, %+v; want %q, %+v", tt.raw, body, got, tt.wantBody, tt.want)
			}
		})
	}
}

// S5: parsing what renderResult produced recovers the exit.
func TestRenderParseRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   commandResult
		want exitStatus
	}{
		{"exit 0", commandResult{Stdout: "ok\n"}, exitStatus{}},
		{"exit 7", commandResult{Stdout: "bad", ExitCode: 7}, exitStatus{code: 7}},
		{"SIGTERM", commandResult{Stderr: "x", Signal: "SIGTERM"}, exitStatus{signal: "SIGTERM"}},
		{"trapped timeout gives 0", commandResult{Stdout: "slow", TimeoutMs: 50}, exitStatus{}},
		{"timeout then kill", commandResult{TimeoutMs: 50, Signal: "SIGKILL"}, exitStatus{signal: "SIGKILL"}},
		{"truncated and failing", commandResult{Stdout: "a", StdoutTruncated: true, ExitCode: 2}, exitStatus{code: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, got := parseExit(renderResult(tt.in)); got != tt.want {
				t.Errorf("parseExit(renderResult(%+v)) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}
