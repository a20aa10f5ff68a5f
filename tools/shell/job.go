package shell

import (
	"strconv"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/sandbox"
)

// job is a command started with run_in_background. Its process is
// supervised by one goroutine (supervise) until it ends.
type job struct {
	id      string
	command string
	proc    *process
	out     *jobOutput

	killOnce sync.Once
	killReq  chan struct{} // closed by requestKill
	done     chan struct{} // closed once the job has ended and settled

	// Set before done is closed; read only after it.
	exit      exitStatus
	timeoutMs int
	// blocked says what the sandbox blocked, when the output of the
	// confined job that failed shows it (see blockedBy); "" otherwise,
	// and for a job that was stopped.
	blocked string
}

// requestKill asks the supervisor to stop the job's process group.
func (j *job) requestKill() { j.killOnce.Do(func() { close(j.killReq) }) }

// ended reports whether the job has ended and settled.
func (j *job) ended() bool {
	select {
	case <-j.done:
		return true
	default:
		return false
	}
}

// endState describes how an ended job ended: "exited with code N" or
// "killed by signal SIG", after "timed out after <ms>ms, " when its
// timeout ended it. Call it only once ended reports true.
func (j *job) endState() string {
	var prefix string
	if j.timeoutMs > 0 {
		prefix = "timed out after " + strconv.Itoa(j.timeoutMs) + "ms, "
	}
	if j.exit.signal != "" {
		return prefix + "killed by signal " + j.exit.signal
	}
	return prefix + "exited with code " + strconv.Itoa(j.exit.code)
}

// startJob starts command in dir as a background job (in the sandbox
// unless escape) and returns its id at once. A positive timeout ends the
// job when it runs longer.
func (s *Shell) startJob(command, dir string, escape bool, timeout time.Duration) (string, error) {
	if err := s.enter(); err != nil {
		return "", err
	}
	out := newJobOutput(s.opts.OutputLimit, s.spill, s.opts.SpillLimit)
	confine, policy := s.confinement(dir, escape)
	p, err := spawn(launch{shell: s.shell, command: command, dir: dir, envAllow: s.opts.EnvAllow, confine: confine, sinks: []func([]byte){out.write}})
	if err != nil {
		s.inFlight.Done()
		return "", spawnError(err)
	}
	if s.started != nil {
		s.started(p.groupID())
	}
	j := &job{command: command, proc: p, out: out, killReq: make(chan struct{}), done: make(chan struct{})}
	s.jobs.add(j)
	go s.supervise(j, policy, timeout)
	return j.id, nil
}

// supervise waits for j to end, or stops it when it is killed, times out,
// or the Shell closes; then it settles the process, reads from the output
// of a confined job (policy not nil) what the sandbox blocked, and marks j
// done.
func (s *Shell) supervise(j *job, policy *sandbox.Policy, timeout time.Duration) {
	defer s.inFlight.Done()
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	stopped := true
	select {
	case <-j.proc.exited:
		stopped = false
	case <-j.killReq:
		j.proc.terminate(s.opts.KillGrace)
	case <-s.life.Done():
		j.proc.terminate(s.opts.KillGrace)
	case <-expired:
		stopped = false
		j.timeoutMs = int(timeout / time.Millisecond)
		j.proc.terminate(s.opts.KillGrace)
	}
	j.exit = j.proc.settle(s.opts.KillGrace)
	j.out.finish()
	if policy != nil && !stopped {
		j.blocked = blockedIn(j.out.text(), j.exit, *policy)
	}
	close(j.done)
}
