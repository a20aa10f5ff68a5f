package shell

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/sandbox"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// hangGuard bounds every wait of these tests for an event (a command
// starting, output arriving, a process group ending). It only turns a hang
// into a failure: no passing test waits for it, and no outcome depends on
// how fast a loaded machine is.
const hangGuard = time.Minute

// fixture is a Shell over a temporary workspace, with a pipeline that runs
// its tools. Unless a test says otherwise, its commands get hangGuard
// between SIGTERM and SIGKILL, so a command that SIGTERM stops is always
// reported as stopped by SIGTERM; a test of the SIGKILL escalation sets a
// short KillGrace and has every process ignore SIGTERM first. The
// pipeline waits up to hangGuard for a stopping body, so a cancelled call
// answers with the body's own result (what the command printed), not the
// pipeline's abandonment.
type fixture struct {
	dir  string
	sh   *Shell
	pipe *pipeline.Pipeline
	// pgids receives each started command's process group.
	pgids chan int
}

func newFixture(t testing.TB, opts Options) *fixture {
	t.Helper()
	dir := t.TempDir()
	ws, err := workspace.New(dir, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	if opts.KillGrace == 0 {
		opts.KillGrace = hangGuard
	}
	if opts.SpillDir == "" {
		opts.SpillDir = t.TempDir()
	}
	if opts.Sandbox == nil {
		// Every command of these tests runs in the sandbox, as under
		// workspace-write, unless the test says otherwise.
		opts.Sandbox = testSandbox(t)
		if opts.SandboxPolicy == nil {
			opts.SandboxPolicy = func(string) (sandbox.Policy, bool) { return workspaceWrite(dir), true }
		}
	}
	sh, err := New(ws, opts)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: dir, sh: sh, pgids: make(chan int, 16)}
	sh.started = func(pgid int) { f.pgids <- pgid }
	t.Cleanup(func() { sh.Close() })
	reg := registry.New()
	for _, tool := range sh.Tools() {
		if _, err := reg.Register(nil, tool); err != nil {
			t.Fatal(err)
		}
	}
	f.pipe = pipeline.New(reg, pipeline.Options{BodyGrace: hangGuard})
	return f
}

// theSandbox is the one Sandbox of these tests (finding what the kernel
// offers starts processes; once is enough).
var theSandbox = sync.OnceValue(sandbox.New)

// testSandbox returns the tests' Sandbox; it fails the test where the
// kernel offers none, for these tests run on machines with Landlock.
func testSandbox(t testing.TB) *sandbox.Sandbox {
	t.Helper()
	s := theSandbox()
	if !s.Status().Available() {
		t.Skipf("this kernel offers no sandbox: %s", s.Status().Summary())
	}
	return s
}

// workspaceWrite is the policy of workspace-write for a workspace at dir:
// writes there, in the temporary directories and the device files.
func workspaceWrite(dir string) sandbox.Policy {
	return sandbox.Policy{Write: append(append([]string{dir}, sandbox.TempDirs()...), sandbox.Devices()...)}
}

// unconfined is the SandboxPolicy of a test whose commands run outside
// the sandbox, as under full-access.
func unconfined(string) (sandbox.Policy, bool) { return sandbox.Policy{}, false }

// run executes one call and returns its result and the text of its
// content.
func (f *fixture) run(t testing.TB, name, args string) (pipeline.Result, string) {
	t.Helper()
	return f.runCtx(context.Background(), t, name, args, nil)
}

// runGuarded is run for a call that must return without waiting for what
// its command leaves running (those processes outlive hangGuard): it
// fails the test when the call has not returned within hangGuard.
func (f *fixture) runGuarded(t *testing.T, name, args string) (pipeline.Result, string) {
	t.Helper()
	type outcome struct {
		r    pipeline.Result
		text string
	}
	done := make(chan outcome, 1)
	go func() {
		r := f.pipe.Execute(context.Background(), pipeline.Input{CallID: "call_" + name, Name: name, Arguments: args})
		done <- outcome{r, presentation.JoinText(r.Content)}
	}()
	select {
	case o := <-done:
		return o.r, o.text
	case <-time.After(hangGuard):
		t.Fatalf("%s %s had not returned after %v", name, args, hangGuard)
		return pipeline.Result{}, ""
	}
}

func (f *fixture) runCtx(ctx context.Context, t testing.TB, name, args string, onProgress func(registry.Progress)) (pipeline.Result, string) {
	t.Helper()
	r := f.pipe.Execute(ctx, pipeline.Input{CallID: "call_" + name, Name: name, Arguments: args, OnProgress: onProgress})
	return r, presentation.JoinText(r.Content)
}

// progress records reported chunks.
type progress struct {
	mu     sync.Mutex
	chunks []string
	more   chan struct{} // closed by the next report, when someone waits
}

func (p *progress) add(pr registry.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.chunks = append(p.chunks, pr.Output)
	if p.more != nil {
		close(p.more)
		p.more = nil
	}
}

func (p *progress) snapshot() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.chunks...)
}

// await waits until ok holds for the chunks reported so far, and reports
// whether it did before hangGuard passed.
func (p *progress) await(ok func(chunks []string) bool) bool {
	guard := time.NewTimer(hangGuard)
	defer guard.Stop()
	for {
		p.mu.Lock()
		if ok(p.chunks) {
			p.mu.Unlock()
			return true
		}
		if p.more == nil {
			p.more = make(chan struct{})
		}
		more := p.more
		p.mu.Unlock()
		select {
		case <-more:
		case <-guard.C:
			return false
		}
	}
}

// waitFor fails the test unless ok comes to hold for the reported chunks.
func (p *progress) waitFor(t *testing.T, what string, ok func(chunks []string) bool) {
	t.Helper()
	if !p.await(ok) {
		t.Fatalf("no %s within %v; reports %q", what, hangGuard, p.snapshot())
	}
}

// printed is the condition that the reports, joined, contain want.
func printed(want string) func(chunks []string) bool {
	return func(chunks []string) bool { return strings.Contains(strings.Join(chunks, ""), want) }
}

// clockAfter makes the next commands' timeouts start only once seen has
// reported want: the Shell's started hook, which runs after a command is
// spawned and before its timeout starts, waits for that (up to hangGuard,
// after which the test fails on the missing output). A test of a timeout
// thus knows what the command did before it, however slow the machine.
func (f *fixture) clockAfter(seen *progress, want string) {
	f.sh.started = func(pgid int) {
		f.pgids <- pgid
		seen.await(printed(want))
	}
}

// openGate creates the file name in the workspace, letting on a command
// that waits for it with `until [ -e name ]; do sleep 0.01; done`: the
// test decides when the command goes on, not the clock.
func (f *fixture) openGate(t *testing.T, name string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, name), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// pgid returns the next started process group.
func (f *fixture) pgid(t *testing.T) int {
	t.Helper()
	select {
	case pgid := <-f.pgids:
		return pgid
	case <-time.After(hangGuard):
		t.Fatal("no command started")
		return 0
	}
}

// registryArgs materializes argument text.
func registryArgs(text string) (registry.Arguments, error) {
	return registry.MaterializeArguments(text)
}
