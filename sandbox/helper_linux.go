//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"syscall"
)

// statusFD is the descriptor on which the helper, as PID 1 of the
// command's PID namespace, reports the command's wait status: it cannot
// end by the signal that ended the command (PID 1 ignores signals it sends
// itself), so its own exit would not say.
const statusFD = 3

// statusReady is the byte the helper writes on statusFD once the program
// runs, before its wait status.
const statusReady = 'R'

// helperFailed is the helper's exit code when the sandbox could not be
// set up; nothing of the command has run then.
const helperFailed = 126

// helperSpec is what the launcher tells the helper: the policy and the
// namespaces it was started in. Probe asks only to try the set-up.
type helperSpec struct {
	Policy Policy `json:"policy"`
	PID    bool   `json:"pid,omitempty"`
	Mount  bool   `json:"mount,omitempty"`
	Net    bool   `json:"net,omitempty"`
	Probe  bool   `json:"probe,omitempty"`
}

// runHelper is the helper: args are the spec, the program's path and its
// argv. It sets the sandbox up and runs the program: by exec, or, as the
// PID namespace's init, as its child. It returns only with an exit code.
func runHelper(args []string) int {
	// The sandbox's capability changes are this thread's (dropCaps); the
	// program is exec'd or forked from it.
	runtime.LockOSThread()
	if len(args) < 1 {
		fmt.Fprintln(os.Stderr, "dsh-acp sandbox: the helper was started without a policy")
		return helperFailed
	}
	var spec helperSpec
	if err := json.Unmarshal([]byte(args[0]), &spec); err != nil {
		fmt.Fprintf(os.Stderr, "dsh-acp sandbox: %v\n", err)
		return helperFailed
	}
	if !spec.Probe {
		syscall.CloseOnExec(statusFD)
	}
	var signals chan os.Signal
	if spec.PID && !spec.Probe {
		// As the namespace's init, this process would not die of them:
		// they are kept and passed on (runAsInit).
		signals = make(chan os.Signal, 8)
		signal.Notify(signals, forwarded...)
	}
	if err := setUp(spec); err != nil {
		fmt.Fprintf(os.Stderr, "dsh-acp sandbox: %v\n", err)
		return helperFailed
	}
	if spec.Probe {
		return 0
	}
	if len(args) < 3 {
		fmt.Fprintln(os.Stderr, "dsh-acp sandbox: the helper was started without a program")
		return helperFailed
	}
	path, argv := args[1], args[2:]
	if !spec.PID {
		err := syscall.Exec(path, argv, os.Environ())
		fmt.Fprintf(os.Stderr, "dsh-acp sandbox: running %s: %v\n", path, err)
		return helperFailed
	}
	return runAsInit(path, argv, signals, os.NewFile(statusFD, "status"))
}

// forwarded are the signals a command's group gets that the init of its
// PID namespace keeps (it cannot die of them) and passes on to the
// program when they came before the program had started.
var forwarded = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE}

// setUp makes the namespaces the helper was started in what the policy
// needs (the credential locations and denied sockets hidden, /proc its own, .git
// read-only), then drops the capabilities that reach past the sandbox, fences
// the network with seccomp where no network namespace does, and
// restricts this process with Landlock; everything it starts inherits
// all of it.
func setUp(spec helperSpec) error {
	if spec.Mount {
		if err := privateMounts(); err != nil {
			return err
		}
		if err := hide(resolveAll(append(slices.Clip(spec.Policy.DenyRead), spec.Policy.Sockets...)), spec.PID); err != nil {
			return err
		}
		if spec.PID {
			if err := freshProc(); err != nil {
				return err
			}
		}
		if err := readOnly(resolveAll(spec.Policy.ReadOnly)); err != nil {
			return err
		}
	}
	if spec.Net {
		if err := loopbackUp(); err != nil {
			return err
		}
	}
	if err := dropCaps(); err != nil {
		return err
	}
	if !spec.Net && !spec.Policy.Network {
		if err := denyNetworkSockets(); err != nil {
			return err
		}
	}
	return restrict(spec.Policy, spec.Net || spec.Policy.Network)
}

// runAsInit runs the program as the only child of the PID namespace's
// init, which this process is: it reaps every process orphaned into the
// namespace, and once the program has ended it reports the program's wait
// status on status and exits, which ends whatever the program left
// running (the kernel kills the rest of the namespace). Signals sent to
// the command's process group reach the program directly; those that
// reached this process (signals) before the program started are passed
// on. Once the program runs, this process says so on status (statusReady),
// so the launcher signals the group only when the program is in it.
func runAsInit(path string, argv []string, signals chan os.Signal, status *os.File) int {
	if resolved, err := exec.LookPath(path); err == nil {
		path = resolved
	}
	wd, _ := os.Getwd()
	child, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{Dir: wd, Env: os.Environ(), Files: []uintptr{0, 1, 2}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "dsh-acp sandbox: running %s: %v\n", path, err)
		return helperFailed
	}
	for pending := true; pending; {
		select {
		case sig := <-signals:
			_ = syscall.Kill(child, sig.(syscall.Signal))
		default:
			pending = false
		}
	}
	_, _ = status.Write([]byte{statusReady})
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "dsh-acp sandbox: waiting for %s: %v\n", path, err)
			return helperFailed
		}
		if pid == child {
			_, _ = status.WriteString(strconv.FormatUint(uint64(ws), 10))
			_ = status.Close()
			if ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return ws.ExitStatus()
		}
		// an orphan, now reaped
	}
}
