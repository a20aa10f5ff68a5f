//go:build unix

package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/registry"
)

func TestBashOutputAndExit(t *testing.T) {
	f := newFixture(t, Options{})
	tests := []struct {
		name     string
		command  string
		want     string
		wantMeta string
	}{
		{"stdout", `echo hi`, "hi\n", `{"exitCode":0}`},
		{"no output", `true`, "(no output)", `{"exitCode":0}`},
		{"S20 non-zero exit is not an error", `echo oops; exit 3`, "oops\n\n[exit code: 3]", `{"exitCode":3}`},
		{"S12 stderr only", `echo boom >&2`, "[stderr]\nboom\n", `{"exitCode":0}`},
		{"S13 unterminated stdout before stderr", `printf out; printf err >&2`, "out\n[stderr]\nerr", `{"exitCode":0}`},
		{"S14 unterminated output before the exit marker", `printf oops; exit 4`, "oops\n[exit code: 4]", `{"exitCode":4}`},
		{"S15 killed by a signal", `echo gone; kill -TERM $$`, "gone\n\n[killed by signal: SIGTERM]", `{"signal":"SIGTERM"}`},
		{"SIGKILL", `kill -KILL $$`, "(no output)\n[killed by signal: SIGKILL]", `{"signal":"SIGKILL"}`},
		{"stdin is closed", `cat; read x; echo "read=$?"`, "read=1\n", `{"exitCode":0}`},
		{"quiet terminal settings", `echo "$TERM $PAGER $GIT_PAGER"`, "dumb cat cat\n", `{"exitCode":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := fmt.Sprintf(`{"command":%q,"description":"test"}`, tt.command)
			r, text := f.run(t, "bash", args)
			if r.IsError {
				t.Fatalf("isError; content %q", text)
			}
			if text != tt.want {
				t.Errorf("content = %q, want %q", text, tt.want)
			}
			if r.Meta != tt.wantMeta {
				t.Errorf("meta = %s, want %s", r.Meta, tt.wantMeta)
			}
		})
	}
}

func TestBashRunsInItsOwnSessionAndGroup(t *testing.T) {
	// Unconfined: a sandboxed command's leader is the sandbox's helper
	// (see TestSandboxedCommandLeadsItsGroupThroughTheHelper).
	f := newFixture(t, Options{SandboxPolicy: unconfined})
	_, text := f.run(t, "bash", `{"command":"ps -o pgid=,sid= -p $$; echo $$"}`)
	if ids := strings.Fields(text); len(ids) != 3 || ids[0] != ids[2] || ids[1] != ids[2] {
		t.Errorf("pgid, sid, pid = %q: want all equal", ids)
	}
}

// cat ends on its own, at the end of its input: were stdin left open, it
// would run until its timeout (a minute, a hang guard) and the result
// would say so.
func TestBashStdinReturnsAtOnce(t *testing.T) {
	f := newFixture(t, Options{})
	r, text := f.run(t, "bash", fmt.Sprintf(`{"command":"cat","timeout":%d}`, hangGuard.Milliseconds()))
	if r.IsError || text != "(no output)" {
		t.Fatalf("cat gave %q (isError %v): stdin is not closed", text, r.IsError)
	}
}

func TestBashWorkdir(t *testing.T) {
	f := newFixture(t, Options{})
	sub := filepath.Join(f.dir, "sub", "dir")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "file.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		workdir  string
		want     string
		wantCode string
	}{
		{"default is the session cwd", "", f.dir + "\n", ""},
		{"relative to the session cwd", "sub/dir", sub + "\n", ""},
		{"absolute", sub, sub + "\n", ""},
		{"missing", "nope", "", CodeWorkdirNotFound},
		{"a file", "file.txt", "", CodeWorkdirNotDirectory},
		// Cleaning would drop the NUL with "sub\x00..", naming another
		// directory: the argument is refused instead.
		{"a NUL byte", "sub\x00/../..", "", registry.CodeInvalidArgs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			workdir, err := json.Marshal(tt.workdir)
			if err != nil {
				t.Fatal(err)
			}
			args := fmt.Sprintf(`{"command":"pwd","workdir":%s}`, workdir)
			if tt.workdir == "" {
				args = `{"command":"pwd"}`
			}
			r, text := f.run(t, "bash", args)
			if tt.wantCode != "" {
				if !r.IsError || r.Code() != tt.wantCode {
					t.Fatalf("got %q (isError %v, code %q), want code %s", text, r.IsError, r.Code(), tt.wantCode)
				}
				if !strings.Contains(text, "workdir") {
					t.Errorf("message %q does not name the workdir argument", text)
				}
				if tt.wantCode == registry.CodeInvalidArgs && !strings.Contains(text, "NUL byte") {
					t.Errorf("message %q does not say what is wrong with the workdir", text)
				}
				return
			}
			if r.IsError || text != tt.want {
				t.Errorf("pwd = %q (isError %v), want %q", text, r.IsError, tt.want)
			}
		})
	}
}

func TestBashPathsAndEffect(t *testing.T) {
	f := newFixture(t, Options{})
	bash := f.sh.Tools()[0]
	args, _ := registryArgs(`{"command":"ls","workdir":"../elsewhere"}`)
	if paths, ok := bash.Paths(args); !ok || len(paths) != 1 || paths[0] != "../elsewhere" {
		t.Errorf("Paths = %q, %v", paths, ok)
	}
	args, _ = registryArgs(`{"command":"ls"}`)
	if paths, ok := bash.Paths(args); !ok || len(paths) != 0 {
		t.Errorf("Paths without workdir = %q, %v", paths, ok)
	}
	if b, _ := bash.Bind(args); b.ConcurrencySafe() {
		t.Error("bash is concurrency-safe; want exclusive")
	}
	wantEffects := map[string]string{"bash": "execute", "job_output": "read", "job_list": "read", "job_kill": "execute"}
	for _, tool := range f.sh.Tools() {
		if got := tool.Effect().String(); got != wantEffects[tool.Name()] {
			t.Errorf("%s effect = %s, want %s", tool.Name(), got, wantEffects[tool.Name()])
		}
	}
}

func TestBashEnvironmentScrubbed(t *testing.T) {
	t.Setenv("FOO_TOKEN", "leak-1")
	t.Setenv("DSH_API_KEY", "leak-2")
	t.Setenv("SOME_SECRET", "leak-3")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "leak-4")
	t.Setenv("DB_PASSWORD", "leak-5")
	t.Setenv("NPM_AUTH", "leak-6")
	t.Setenv("KEEP_ME", "kept")
	t.Setenv("GITHUB_TOKEN", "allowed")
	f := newFixture(t, Options{EnvAllow: []string{"github_*"}})
	r, text := f.run(t, "bash", `{"command":"env"}`)
	if r.IsError {
		t.Fatal(text)
	}
	if strings.Contains(text, "leak-") {
		t.Errorf("the child sees a secret:\n%s", text)
	}
	for _, want := range []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "KEEP_ME=kept", "GITHUB_TOKEN=allowed"} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("the child lacks %s", want)
		}
	}
}

func TestBashSpawnFailureIsAnError(t *testing.T) {
	f := newFixture(t, Options{Shell: "/nonexistent/bash"})
	r, text := f.run(t, "bash", `{"command":"true"}`)
	if !r.IsError || r.Code() != CodeSpawnFailed {
		t.Fatalf("S20 spawn failure: got %q (isError %v, code %q)", text, r.IsError, r.Code())
	}
}

func TestBashTimeoutArgument(t *testing.T) {
	f := newFixture(t, Options{})
	r, text := f.run(t, "bash", `{"command":"true","timeout":0}`)
	if !r.IsError || r.Code() != "INVALID_ARGS" || !strings.Contains(text, "timeout") {
		t.Errorf("timeout 0: %q (code %q)", text, r.Code())
	}
	r, text = f.run(t, "bash", `{"command":"echo ok","timeout":99999999}`)
	if r.IsError || text != "ok\n" {
		t.Errorf("a timeout above the maximum is lowered: %q (isError %v)", text, r.IsError)
	}
}

func TestBashTimeoutKillsTheGroup(t *testing.T) {
	f := newFixture(t, Options{})
	var seen progress
	f.clockAfter(&seen, "started\n")
	r, text := f.runCtx(context.Background(), t, "bash", `{"command":"echo started; sleep 300 & sleep 300; wait","timeout":300}`, seen.add)
	pgid := f.pgid(t)
	if r.IsError {
		t.Fatalf("isError: %q", text)
	}
	if want := "started\n\n[timed out after 300ms]\n[killed by signal: SIGTERM]"; text != want {
		t.Errorf("content = %q, want %q", text, want)
	}
	if r.Meta != `{"signal":"SIGTERM","timedOut":true}` {
		t.Errorf("meta = %s", r.Meta)
	}
	waitGone(t, pgid)
}

// Every process of the command ignores SIGTERM (the sleeps inherit the
// ignored disposition) before the timeout starts, so only SIGKILL, after
// the grace, can stop them.
func TestBashTimeoutSIGKILLsWhatIgnoresSIGTERM(t *testing.T) {
	f := newFixture(t, Options{KillGrace: 300 * time.Millisecond})
	var seen progress
	f.clockAfter(&seen, "ready\n")
	r, text := f.runCtx(context.Background(), t, "bash", `{"command":"trap '' TERM; echo ready; sleep 300 & sleep 300; wait","timeout":200}`, seen.add)
	pgid := f.pgid(t)
	if r.IsError || text != "ready\n\n[timed out after 200ms]\n[killed by signal: SIGKILL]" {
		t.Errorf("content = %q (isError %v)", text, r.IsError)
	}
	waitGone(t, pgid)
}

func TestBashTrappedTimeoutExitsZero(t *testing.T) {
	f := newFixture(t, Options{})
	var seen progress
	f.clockAfter(&seen, "slow\n") // the trap is set
	r, text := f.runCtx(context.Background(), t, "bash", `{"command":"trap 'echo trapped; exit 0' TERM; echo slow; sleep 300 & wait","timeout":200}`, seen.add)
	if r.IsError {
		t.Fatal(text)
	}
	// S16: a timeout marker and no exit marker.
	if want := "slow\ntrapped\n\n[timed out after 200ms]"; text != want {
		t.Errorf("content = %q, want %q", text, want)
	}
	if r.Meta != `{"exitCode":0,"timedOut":true}` {
		t.Errorf("meta = %s", r.Meta)
	}
}

// The call returns once bash has ended, without waiting for the sleep it
// left running, and the sleep is stopped.
func TestBashStopsWhatTheCommandLeftBehind(t *testing.T) {
	f := newFixture(t, Options{})
	r, text := f.runGuarded(t, "bash", `{"command":"sleep 300 & echo left"}`)
	pgid := f.pgid(t)
	if r.IsError || text != "left\n" {
		t.Fatalf("content = %q (isError %v)", text, r.IsError)
	}
	waitGone(t, pgid)
}

func TestBashHugeOutputIsCappedAndSpilled(t *testing.T) {
	spill := t.TempDir()
	f := newFixture(t, Options{SpillDir: spill})
	var seen progress
	const size = 5_000_000
	r, text := f.runCtx(context.Background(), t, "bash", fmt.Sprintf(`{"command":"yes | head -c %d"}`, size), seen.add)
	if r.IsError {
		t.Fatal(text)
	}
	if len(text) > DefaultOutputLimit+500 {
		t.Errorf("content is %d bytes, want about %d", len(text), DefaultOutputLimit)
	}
	if !strings.Contains(text, "bytes omitted ...]\n") {
		t.Errorf("no omission line in %q…", text[:100])
	}
	const prefix = "\n[output truncated; full output: "
	i := strings.LastIndex(text, prefix)
	if i < 0 || !strings.HasSuffix(text, "]") {
		t.Fatalf("no truncation marker at the end of …%q", text[max(0, len(text)-200):])
	}
	path := text[i+len(prefix) : len(text)-1]
	if filepath.Dir(filepath.Dir(path)) != spill {
		t.Errorf("spill file %s is not in a directory of %s", path, spill)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != size || strings.Count(string(data), "y\n") != size/2 {
		t.Errorf("spill file holds %d bytes, want all %d", len(data), size)
	}
	if r.Meta != `{"exitCode":0,"truncated":true}` {
		t.Errorf("meta = %s", r.Meta)
	}
	streamed := strings.Join(seen.snapshot(), "")
	if len(streamed) > streamLimit+200 || !strings.Contains(streamed, "[live output stops after") {
		t.Errorf("live output is %d bytes, want it to stop near %d with a note", len(streamed), streamLimit)
	}
}

func TestBashSpillUnavailable(t *testing.T) {
	f := newFixture(t, Options{SpillDir: filepath.Join(t.TempDir(), "missing"), OutputLimit: 100})
	r, text := f.run(t, "bash", `{"command":"seq 1 1000; exit 2"}`)
	if r.IsError {
		t.Fatal(text)
	}
	if !strings.HasSuffix(text, "\n[output truncated; full output: (unavailable)]\n[exit code: 2]") {
		t.Errorf("S18 content = …%q", text[max(0, len(text)-120):])
	}
	if !strings.HasPrefix(text, "1\n2\n") || !strings.Contains(text, "\n1000\n") {
		t.Errorf("head or tail missing: %q", text)
	}
}

// Each line is reported while the command still runs: the command waits
// for the test (a gate file) after each, so the order of arrival and the
// split into reports are the command's, not the scheduler's.
func TestBashStreamsOutputAsItArrives(t *testing.T) {
	f := newFixture(t, Options{})
	var seen progress
	done := make(chan struct{})
	var text string
	go func() {
		defer close(done)
		_, text = f.runCtx(context.Background(), t, "bash",
			`{"command":"echo one; until [ -e gate1 ]; do sleep 0.01; done; echo two >&2; until [ -e gate2 ]; do sleep 0.01; done; echo three"}`, seen.add)
	}()
	seen.waitFor(t, "report of the first line", printed("one\n"))
	f.openGate(t, "gate1")
	seen.waitFor(t, "report of the second line", printed("two\n"))
	select {
	case <-done:
		t.Fatal("the command finished before it was let on")
	default: // it cannot have: it waits for gate2
	}
	f.openGate(t, "gate2")
	<-done
	chunks := seen.snapshot()
	if len(chunks) < 3 {
		t.Errorf("%d reports, want at least 3: %q", len(chunks), chunks)
	}
	if got := strings.Join(chunks, ""); got != "one\ntwo\nthree\n" {
		t.Errorf("streamed %q, want stdout and stderr interleaved in arrival order", got)
	}
	if text != "one\nthree\n[stderr]\ntwo\n" {
		t.Errorf("content = %q", text)
	}
}

func TestBashStreamsWholeCharacters(t *testing.T) {
	f := newFixture(t, Options{})
	var seen progress
	done := make(chan struct{})
	var text string
	go func() {
		defer close(done)
		_, text = f.runCtx(context.Background(), t, "bash",
			`{"command":"printf 'caf\\303'; until [ -e gate ]; do sleep 0.01; done; printf '\\251\\n'"}`, seen.add)
	}()
	// The first half of é has been read (as "caf" and a held-back byte)
	// before the second half is written.
	seen.waitFor(t, "report of the first write", printed("caf"))
	f.openGate(t, "gate")
	<-done
	chunks := seen.snapshot()
	for _, c := range chunks {
		if !utf8.ValidString(c) || strings.ContainsRune(c, utf8.RuneError) {
			t.Errorf("chunk %q splits a character", c)
		}
	}
	if got := strings.Join(chunks, ""); got != "café\n" || text != "café\n" {
		t.Errorf("streamed %q, content %q", got, text)
	}
}

func TestBashInvalidUTF8IsReplaced(t *testing.T) {
	f := newFixture(t, Options{})
	r, text := f.run(t, "bash", `{"command":"printf 'a\\377b'"}`)
	if r.IsError || text != "a\uFFFDb" {
		t.Errorf("content = %q (isError %v)", text, r.IsError)
	}
}

// A process that leaves the command's group (setsid) and keeps the output
// pipe open does not hold the call: the output is drained briefly, then
// the pipe is closed.
func TestBashDoesNotWaitForEscapedProcesses(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid not available")
	}
	f := newFixture(t, Options{})
	r, text := f.runGuarded(t, "bash", `{"command":"setsid sleep 300 & echo hi"}`)
	if r.IsError || text != "hi\n" {
		t.Errorf("content = %q (isError %v)", text, r.IsError)
	}
}
