// Package procgroup holds a program dsh-acp starts (an MCP server, a
// language server) together with every process it starts, so that all of
// them stop together: on Unix a process group of its own, stopped with
// SIGTERM to the whole group and then SIGKILL to whatever is still alive
// once a grace has passed; on Windows a Job Object (internal/jobobject)
// the program is born into, suspended until it is inside, which kills
// every process of the job at once.
//
//	procgroup.Isolate(cmd)
//	_ = cmd.Start()
//	group, err := procgroup.Hold(cmd) // on Windows, lets the program run
//	…
//	group.Stop(procgroup.Grace) // returns once the group is gone
//
// A program prepared with Isolate must be held once started: on Windows
// it does not run until it is.
package procgroup

import "time"

// Grace is the usual time a stopping group has between SIGTERM and
// SIGKILL on Unix.
const Grace = 2 * time.Second
