package shell

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/workspace"
)

// fixture is a Shell over a temporary workspace, with a pipeline that runs
// its tools.
type fixture struct {
	dir  string
	sh   *Shell
	pipe *pipeline.Pipeline
	// pgids receives each started command's process group.
	pgids chan int
}

func newFixture(t *testing.T, opts Options) *fixture {
	t.Helper()
	dir := t.TempDir()
	ws, err := workspace.New(dir, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	if opts.SpillDir == "" {
		opts.SpillDir = t.TempDir()
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
	f.pipe = pipeline.New(reg, pipeline.Options{})
	return f
}

// run executes one call and returns its result and the text of its
// content.
func (f *fixture) run(t *testing.T, name, args string) (pipeline.Result, string) {
	t.Helper()
	return f.runCtx(context.Background(), t, name, args, nil)
}

func (f *fixture) runCtx(ctx context.Context, t *testing.T, name, args string, onProgress func(registry.Progress)) (pipeline.Result, string) {
	t.Helper()
	r := f.pipe.Execute(ctx, pipeline.Input{CallID: "call_" + name, Name: name, Arguments: args, OnProgress: onProgress})
	return r, presentation.JoinText(r.Content)
}

// progress records reported chunks.
type progress struct {
	mu     sync.Mutex
	chunks []string
}

func (p *progress) add(pr registry.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.chunks = append(p.chunks, pr.Output)
}

func (p *progress) snapshot() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.chunks...)
}

// waitGone fails the test unless no live process of group pgid is left
// within limit. Zombies waiting for init to reap them are dead and do not
// count.
func waitGone(t *testing.T, pgid int, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for groupAlive(pgid) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has live processes %v after %v", pgid, limit, limit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// pgid returns the next started process group.
func (f *fixture) pgid(t *testing.T) int {
	t.Helper()
	select {
	case pgid := <-f.pgids:
		return pgid
	case <-time.After(5 * time.Second):
		t.Fatal("no command started")
		return 0
	}
}

// registryArgs materializes argument text.
func registryArgs(text string) (registry.Arguments, error) {
	return registry.MaterializeArguments(text)
}
