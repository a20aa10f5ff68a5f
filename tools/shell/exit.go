package shell

// exitStatus is how a command ended: killed by a signal (signal set), or
// exited with code. On Windows, where there are no signals, a command
// this package killed (its timeout, a cancel, job_kill, Close) reads as
// killed by SIGKILL, the signal that ends a Unix command the same way.
type exitStatus struct {
	code   int
	signal string
}
