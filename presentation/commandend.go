package presentation

import (
	"strconv"
	"time"
)

// CommandEnd is how a command ended, as an editor is shown it. At most one
// of ExitCode and Signal is set; both unset is an end not known.
type CommandEnd struct {
	// ExitCode is the code the command exited with.
	ExitCode *int
	// Signal names the signal that killed it ("SIGTERM").
	Signal string
	// Timeout, when set, is the timeout that stopped it.
	Timeout time.Duration
}

// Failed reports whether the command failed, which is how the editor shows
// the call: it was stopped by its timeout, killed by a signal, or exited
// with a code other than 0. (The model reads a failed command as an
// ordinary result, not as a tool error.)
func (e CommandEnd) Failed() bool {
	return e.Timeout > 0 || e.Signal != "" || (e.ExitCode != nil && *e.ExitCode != 0)
}

// String says how a failed command ended, the timeout first since it
// caused the rest: "timed out after 120 s", "killed by SIGTERM",
// "exit code 3". It is "" for a command that did not fail.
func (e CommandEnd) String() string {
	switch {
	case e.Timeout > 0:
		return "timed out after " + seconds(e.Timeout)
	case e.Signal != "":
		return "killed by " + e.Signal
	case e.ExitCode != nil && *e.ExitCode != 0:
		return "exit code " + strconv.Itoa(*e.ExitCode)
	}
	return ""
}

// seconds writes d in whole seconds ("120 s") when it is one, else in
// milliseconds ("1500 ms").
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + " s"
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
}
