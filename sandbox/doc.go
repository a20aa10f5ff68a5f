// Package sandbox confines commands in the kernel, so that what a
// command may do does not depend on what a parser made of its text: it
// may read everywhere except the credential locations, change files only
// below its write roots, not reach the network, not see or signal the
// process that started it, and not read that process's environment or
// memory.
//
// On Linux the confinement is Landlock (file access, TCP, signal and
// abstract-socket scoping, and — through Landlock's ptrace rule and the
// capabilities the helper drops — no access to other processes' memory
// or environment) and, where the kernel lets a process make them, a PID
// namespace with its own /proc (the command sees only its own
// processes), a mount namespace (the workspace's .git directories
// read-only, each credential location covered by an empty read-only
// stand-in, so even the names inside ~/.ssh cannot be listed) and a
// network namespace with only a loopback interface. Go
// cannot run code between fork and exec, so the program re-executes
// itself as a helper that sets this up and then runs the command; the
// program must call Main first thing in main (and in TestMain where tests
// run confined commands). Elsewhere New reports that no sandbox is
// available, and callers ask before each command instead.
//
// In use:
//
//	func main() {
//		sandbox.Main() // the helper, when this process was started as one
//		sb := sandbox.New()
//		fmt.Println(sb.Status().Summary())
//
//		cmd := exec.Command("/bin/bash", "-c", "make test")
//		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
//		home, _ := os.UserHomeDir()
//		loc := sandbox.Locations{Home: home}
//		confined, err := sb.Confine(cmd, sandbox.Policy{
//			Write:    append([]string{"/home/you/project"}, sandbox.TempDirs()...),
//			DenyRead: loc.Credentials(),
//		})
//		if err != nil {
//			log.Fatal(err) // no sandbox here: do not run it unconfined silently
//		}
//		if err := cmd.Start(); err != nil {
//			confined.Discard()
//			log.Fatal(err)
//		}
//		confined.Started()
//		_ = cmd.Wait()
//		fmt.Println(confined.Exit(cmd.ProcessState)) // the command's own exit
//	}
package sandbox
