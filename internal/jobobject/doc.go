// Package jobobject holds Windows processes in a Job Object that kills
// every process in it when it is terminated or closed, so nothing a
// command started (its children, their background jobs) outlives it.
//
//	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: jobobject.CreationFlags}
//	_ = cmd.Start()
//	job, err := jobobject.Hold(cmd.Process.Pid) // assigns, then lets it run
//	…
//	job.Terminate() // every process of the job is killed
//	job.Close()     // and would be on close, too
//
// A process started with CreationFlags is suspended until Hold has put it
// in the job, so even its first child is born inside. A process of the
// job cannot leave it (no breakaway is allowed). The package builds on
// Windows only.
package jobobject
