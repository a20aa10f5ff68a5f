// Package procgroup stops a process group the way every program dsh-acp
// starts is stopped (MCP servers, language servers): SIGTERM to the whole
// group, then SIGKILL to whatever is still alive once a grace has passed,
// so the children a server started (`sh -c 'sleep 1000 & exec server'`)
// die with it, not only the direct child.
//
//	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
//	_ = cmd.Start()
//	…
//	procgroup.Stop(cmd.Process.Pid, 2*time.Second) // returns once the group is gone
//
// Where there are no process groups (Windows), Stop does nothing; callers
// kill their own process there.
package procgroup
