package main

// The session/new benchmark with the durable store: one process of the
// built binary serving a store in a temporary state directory, timed from
// each session/new request written to its answer read. Each session is
// closed after its answer (untimed), as an editor closing threads would,
// so that the process does not pile up open logs; its log and index entry
// stay. The "stored=1000" case starts with a store already holding 1,000
// sessions, created through session.Store before the process starts; the
// "memory" case runs without a state directory (no store: sessions live
// in memory only), the baseline that shows what the store costs.
//
//	go test -run '^$' -bench SessionNewStored -benchtime 200x ./cmd/dsh-acp
//
// The model is scripted (an empty DSH_MODEL_SCRIPT), so no key is needed
// and no network is touched. Set DSH_ACP_BIN to measure a binary you
// built.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/session"
)

// sessionNewWarmup is how many session/new calls run before the measured
// ones: the first few pay for one-time work the spawn benchmark measures.
const sessionNewWarmup = 5

func BenchmarkSessionNewStored(b *testing.B) {
	bin := spawnBinary(b)
	b.Run("memory", func(b *testing.B) { benchSessionNew(b, bin, -1) })
	for _, stored := range []int{0, 1000} {
		b.Run(fmt.Sprintf("stored=%d", stored), func(b *testing.B) {
			benchSessionNew(b, bin, stored)
		})
	}
}

// benchSessionNew times session/new in one serving process whose store
// already holds stored sessions (no store at all when stored < 0), and
// reports the median.
func benchSessionNew(b *testing.B, bin string, stored int) {
	dir := b.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		b.Fatal(err)
	}
	script := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(script, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "DSH_MODEL_SCRIPT="+script, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"DSH_CONFIG=", "DSH_API_KEY=", "DEEPSEEK_API_KEY=")
	if stored < 0 {
		// Without a state directory or a home to put one in, sessions are
		// not stored.
		env = append(env, "DSH_STATE_DIR=", "XDG_STATE_HOME=", "HOME=")
	} else {
		state := filepath.Join(dir, "state")
		fillStore(b, state, ws, stored)
		env = append(env, "DSH_STATE_DIR="+state)
	}

	p := startBenchServer(b, bin, ws, env)
	p.call(b, "initialize", zedInitializeParams(b))
	newParams := json.RawMessage(fmt.Sprintf(`{"cwd":%q,"mcpServers":[]}`, ws))
	for range sessionNewWarmup {
		p.closeSession(b, p.newSession(b, newParams))
	}

	var ms []float64
	for b.Loop() {
		start := time.Now()
		id := p.newSession(b, newParams)
		ms = append(ms, float64(time.Since(start))/float64(time.Millisecond))
		b.StopTimer()
		p.closeSession(b, id)
		b.StartTimer()
	}
	b.ReportMetric(quantile(ms, 0.5), "ms/session-new-median")
	b.ReportMetric(quantile(ms, 0.9), "ms/session-new-p90")
	b.Logf("%d session/new calls, %d sessions stored before: median %.3f ms, p90 %.3f ms, min %.3f ms, max %.3f ms",
		len(ms), stored, quantile(ms, 0.5), quantile(ms, 0.9), slices.Min(ms), slices.Max(ms))
	p.stop(b)
}

// fillStore creates n sessions in the store at dir, in cwd.
func fillStore(b *testing.B, dir, cwd string, n int) {
	store, err := session.OpenStore(dir, session.StoreOptions{})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now().Add(-time.Duration(n) * time.Minute)
	for i := range n {
		at := start.Add(time.Duration(i) * time.Minute)
		j, err := store.Create(session.Meta{Cwd: cwd, Title: fmt.Sprintf("Stored session number %d", i),
			Created: at, Updated: at, Model: "deepseek-v4-flash", Preset: "workspace-write"})
		if err != nil {
			b.Fatal(err)
		}
		// An event, so that the session is stored.
		j.Write(session.Event{Seq: 1, Time: at, Turn: 1, Payload: session.TurnStarted{}})
		if err := j.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// benchServer is the binary serving ACP, driven with raw frames.
type benchServer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *lockedBuffer
	nextID int
}

func startBenchServer(b *testing.B, bin, ws string, env []string) *benchServer {
	p := &benchServer{cmd: exec.Command(bin), stderr: &lockedBuffer{}}
	p.cmd.Dir, p.cmd.Env, p.cmd.Stderr = ws, env, p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		b.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	p.stdout = bufio.NewReaderSize(stdout, 1<<16)
	if err := p.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	return p
}

// call sends a request and returns its result.
func (p *benchServer) call(b *testing.B, method string, params json.RawMessage) json.RawMessage {
	p.nextID++
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": p.nextID, "method": method, "params": params})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := p.stdin.Write(append(req, '\n')); err != nil {
		b.Fatalf("%s: %v", method, err)
	}
	res, err := awaitResponse(p.stdout, p.nextID)
	if err != nil {
		b.Fatalf("%s: %v\nstderr:\n%s", method, err, p.stderr.String())
	}
	return res
}

// newSession sends session/new and returns the session's id.
func (p *benchServer) newSession(b *testing.B, params json.RawMessage) string {
	var created struct {
		SessionID string `json:"sessionId"`
	}
	res := p.call(b, "session/new", params)
	if err := json.Unmarshal(res, &created); err != nil || created.SessionID == "" {
		b.Fatalf("session/new answered %s", res)
	}
	return created.SessionID
}

func (p *benchServer) closeSession(b *testing.B, id string) {
	p.call(b, "session/close", json.RawMessage(fmt.Sprintf(`{"sessionId":%q}`, id)))
}

// stop closes stdin and checks that the process exits 0.
func (p *benchServer) stop(b *testing.B) {
	p.stdin.Close()
	io.Copy(io.Discard, p.stdout)
	if err := p.cmd.Wait(); err != nil {
		b.Fatalf("exit after stdin EOF: %v\nstderr:\n%s", err, p.stderr.String())
	}
	if strings.Contains(p.stderr.String(), "level=ERROR") {
		b.Errorf("the server logged errors:\n%s", p.stderr.String())
	}
}
