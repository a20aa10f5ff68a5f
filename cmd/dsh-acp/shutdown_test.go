//go:build unix

package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// shutdownScript is one model step running two commands in the turn: a
// background job, and a foreground command that starts two strays in
// sessions of their own (setsid) — the second also dropping the
// environment the bash tool finds strays by (env -i; it keeps only the
// test's marker) — prints up-42 once both have left the group, and
// sleeps.
const shutdownScript = `{"tool_calls":[` +
	`{"name":"bash","arguments":{"command":"sleep 300","run_in_background":true}},` +
	`{"name":"bash","arguments":{"command":"setsid sleep 300 & a=$!; env -i DSH_TEST_MARK=\"$DSH_TEST_MARK\" setsid sleep 300 & b=$!; ` +
	`for p in $a $b; do until [ \"$(cut -d' ' -f6 /proc/$p/stat)\" = \"$p\" ]; do sleep 0.01; done; done; echo \"up-$((6*7))\"; sleep 300"}}]}
`

// The binary stops on SIGTERM and SIGINT while stdin stays open, and when
// the client closes stdout: the running turn ends (answered cancelled
// when stdout is still read), every process the turn started — the
// foreground command, the background job, the strays that left its group
// — is gone, and the exit status is 0.
func TestShutdownStopsEverything(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("leftover processes are found through /proc")
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid program")
	}
	bin := spawnBinary(t)
	tests := []struct {
		name string
		stop func(t *testing.T, s *liveServer)
		// answered says the prompt's answer can be read.
		answered bool
	}{
		{"SIGTERM with stdin open", func(t *testing.T, s *liveServer) { s.signal(t, syscall.SIGTERM) }, true},
		{"SIGINT with stdin open", func(t *testing.T, s *liveServer) { s.signal(t, syscall.SIGINT) }, true},
		{"stdout closed by the client", func(t *testing.T, s *liveServer) {
			s.stdout.Close()
			// The next frame the server writes finds stdout closed.
			s.send(t, `{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":1}}`)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startServer(t, bin, shutdownScript, "--permission", "full-access")
			s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,`+
				`"clientCapabilities":{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false,"_meta":{"terminal_output":true}}}}`)
			s.response(t, 1)
			s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, s.ws))
			var created struct {
				SessionID string `json:"sessionId"`
			}
			if err := json.Unmarshal(s.response(t, 2), &created); err != nil || created.SessionID == "" {
				t.Fatalf("session/new: %v", err)
			}
			s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"go"}]}}`, created.SessionID))
			s.await(t, "the foreground command's output", func(frame []byte) bool { return bytes.Contains(frame, []byte("up-42")) })
			s.waitSleeps(t, 4) // the job, the strays and the foreground command

			tt.stop(t, s)
			if tt.answered {
				var answer struct {
					StopReason string `json:"stopReason"`
				}
				if err := json.Unmarshal(s.response(t, 3), &answer); err != nil || answer.StopReason != "cancelled" {
					t.Errorf("the prompt answered %+v (%v), want stopReason cancelled", answer, err)
				}
			}
			state := s.wait(t)
			if !state.Success() {
				t.Errorf("exit: %v, want status 0\nstderr:\n%s", state, s.stderr.String())
			}
			s.waitNoneLeft(t)
		})
	}
}

// liveServer is the built binary, started as an editor starts it.
type liveServer struct {
	cmd    *exec.Cmd
	ws     string
	marker string // DSH_TEST_MARK: every process the server starts inherits it
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *lockedBuffer
	frames chan []byte
}

// startServer starts bin in a fresh workspace with a model script; stdin
// stays open until the test ends.
func startServer(t *testing.T, bin, script string, args ...string) *liveServer {
	t.Helper()
	dir := t.TempDir()
	scriptFile := filepath.Join(dir, "model.jsonl")
	if err := os.WriteFile(scriptFile, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &liveServer{ws: filepath.Join(dir, "ws"), marker: rand.Text(), stderr: &lockedBuffer{},
		frames: make(chan []byte, 1024)}
	if err := os.Mkdir(s.ws, 0o755); err != nil {
		t.Fatal(err)
	}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Dir = s.ws
	s.cmd.Env = append(os.Environ(), "DSH_MODEL_SCRIPT="+scriptFile, "DSH_TEST_MARK="+s.marker,
		"DSH_API_KEY=", "DEEPSEEK_API_KEY=", "DSH_CONFIG=", "TMPDIR="+dir)
	s.cmd.Stderr = s.stderr
	var err error
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if s.stdout, err = s.cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go s.read()
	t.Cleanup(func() {
		s.stdin.Close()
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
		for range s.frames { // let read end
		}
		for _, pid := range s.marked() { // a failed test leaves nothing behind
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return s
}

// read hands stdout's lines to frames until EOF or a read error.
func (s *liveServer) read() {
	defer close(s.frames)
	r := bufio.NewReaderSize(s.stdout, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			s.frames <- line
		}
		if err != nil {
			return
		}
	}
}

func (s *liveServer) send(t *testing.T, frame string) {
	t.Helper()
	if _, err := io.WriteString(s.stdin, frame+"\n"); err != nil {
		t.Fatalf("writing to stdin: %v", err)
	}
}

func (s *liveServer) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// await reads frames until one satisfies ok, and returns it.
func (s *liveServer) await(t *testing.T, what string, ok func(frame []byte) bool) []byte {
	t.Helper()
	guard := time.NewTimer(hangGuard)
	defer guard.Stop()
	for {
		select {
		case frame, open := <-s.frames:
			if !open {
				t.Fatalf("stdout ended before %s\nstderr:\n%s", what, s.stderr.String())
			}
			if ok(frame) {
				return frame
			}
		case <-guard.C:
			t.Fatalf("no %s after %v\nstderr:\n%s", what, hangGuard, s.stderr.String())
		}
	}
}

// response awaits the response with id and returns its result.
func (s *liveServer) response(t *testing.T, id int) json.RawMessage {
	t.Helper()
	frame := s.await(t, "response "+strconv.Itoa(id), func(frame []byte) bool {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		return json.Unmarshal(frame, &msg) == nil && msg.Method == "" && string(msg.ID) == strconv.Itoa(id)
	})
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(frame, &msg); err != nil || msg.Error != nil {
		t.Fatalf("response %d: %s", id, frame)
	}
	return msg.Result
}

// wait awaits the server's exit.
func (s *liveServer) wait(t *testing.T) *os.ProcessState {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(hangGuard):
		s.cmd.Process.Kill()
		<-done
		t.Fatalf("the server still ran %v after it was told to stop\nstderr:\n%s", hangGuard, s.stderr.String())
	}
	return s.cmd.ProcessState
}

// marked lists the live processes carrying the server's DSH_TEST_MARK: the
// server and everything it started.
func (s *liveServer) marked() []int {
	entry := []byte("DSH_TEST_MARK=" + s.marker)
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !slices.ContainsFunc(bytes.Split(env, []byte{0}), func(kv []byte) bool { return bytes.Equal(kv, entry) }) || zombie(pid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// sleeps lists the marked processes running sleep.
func (s *liveServer) sleeps() []int {
	var pids []int
	for _, pid := range s.marked() {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if bytes.HasPrefix(cmdline, []byte("sleep\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitSleeps waits until n marked processes run sleep.
func (s *liveServer) waitSleeps(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for len(s.sleeps()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("want %d sleep processes, found %v", n, s.sleeps())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitNoneLeft waits until no process of the server lives.
func (s *liveServer) waitNoneLeft(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for {
		left := s.marked()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			var desc []string
			for _, pid := range left {
				cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
				desc = append(desc, fmt.Sprintf("%d %q", pid, cmdline))
			}
			t.Fatalf("processes of the server still run: %v", desc)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// zombie reports whether pid is dead but not yet reaped.
func zombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	end := bytes.LastIndexByte(stat, ')')
	return end < 0 || end+2 >= len(stat) || stat[end+2] == 'Z' || stat[end+2] == 'X'
}
