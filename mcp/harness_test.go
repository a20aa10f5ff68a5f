//go:build linux

package mcp

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
)

// hangGuard bounds every wait in these tests; nothing should come near it.
const hangGuard = 60 * time.Second

// report is one Options.Report call.
type report struct{ server, message string }

// session is a Servers with its tools registered in a scope and run
// through a real pipeline, the way the app wires it.
type session struct {
	t        testing.TB
	servers  *Servers
	reg      *registry.Registry
	scope    *registry.Scope
	pipeline *pipeline.Pipeline
	reports  chan report
	changed  chan struct{} // holds one token when tools changed since the last wait
}

func newSession(t testing.TB, configs []Server, opts Options) *session {
	t.Helper()
	s := &session{t: t, reg: registry.New(), reports: make(chan report, 16), changed: make(chan struct{}, 1)}
	s.scope = s.reg.NewScope("session", nil)
	s.pipeline = pipeline.New(s.reg, pipeline.Options{})
	opts.Report = func(server, message string) { s.reports <- report{server, message} }
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	s.servers = Connect(ctx, configs, opts)
	dispose, err := s.servers.Register(s.reg, s.scope)
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	s.servers.OnToolsChanged(func() {
		select {
		case s.changed <- struct{}{}:
		default: // a change is pending already
		}
	})
	t.Cleanup(func() {
		if err := s.servers.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		dispose()
		s.scope.Close()
	})
	return s
}

// names lists the registered tools.
func (s *session) names() []string {
	var names []string
	for _, tool := range s.reg.Tools(s.scope) {
		names = append(names, tool.Name())
	}
	return names
}

func (s *session) call(ctx context.Context, name, args string) pipeline.Result {
	return s.pipeline.Execute(ctx, pipeline.Input{CallID: "call-" + name, Name: name, Arguments: args, Scope: s.scope})
}

func (s *session) mustCall(name, args string) pipeline.Result {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	return s.call(ctx, name, args)
}

// nextReport waits for the next report.
func (s *session) nextReport() report {
	s.t.Helper()
	select {
	case r := <-s.reports:
		return r
	case <-time.After(hangGuard):
		s.t.Fatal("no report")
		return report{}
	}
}

// waitFor waits for tool changes until cond holds.
func (s *session) waitFor(what string, cond func() bool) {
	s.t.Helper()
	guard := time.After(hangGuard)
	for !cond() {
		select {
		case <-s.changed:
		case <-guard:
			s.t.Fatalf("never: %s", what)
		}
	}
}

// events reads the lines helper servers write to a fifo.
type events struct {
	path  string
	file  *os.File
	lines chan string
	done  chan struct{}
}

func newEvents(t testing.TB) *events {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0) // read-write: never sees EOF between writers
	if err != nil {
		t.Fatalf("open fifo: %v", err)
	}
	e := &events{path: path, file: f, lines: make(chan string, 16), done: make(chan struct{})}
	go func() {
		defer close(e.done)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		_ = f.Close()
		<-e.done
	})
	return e
}

func (e *events) next(t testing.TB) string {
	t.Helper()
	select {
	case l := <-e.lines:
		return l
	case <-time.After(hangGuard):
		t.Fatal("no event from the server")
		return ""
	}
}

// stdioServer is the test binary serving newTestServer over stdio.
func stdioServer(name string, ev *events) Server {
	env := map[string]string{helperEnv: helperServer}
	if ev != nil {
		env[fifoEnv] = ev.path
	}
	return Server{Name: name, Command: os.Args[0], Env: env}
}

// httpServer serves newTestServer over streamable HTTP; its hooks send
// events to the first channel returned, and the X-Test-Token header of
// requests to the second.
func httpServer(t testing.TB, name string) (Server, chan string, chan string) {
	return webServer(t, name, TransportHTTP)
}

// webServer serves newTestServer over transport (http or sse), as
// httpServer says.
func webServer(t testing.TB, name, transport string) (Server, chan string, chan string) {
	t.Helper()
	events := make(chan string, 16)
	tokens := make(chan string, 256)
	srv := newTestServer(testHooks{
		event: func(n string) { events <- n },
		crash: func() {},
		pids:  func() string { return strconv.Itoa(os.Getpid()) },
	})
	var handler http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	if transport == TransportSSE {
		handler = sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case tokens <- r.Header.Get("X-Test-Token"):
		default:
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return Server{Name: name, URL: ts.URL, Headers: map[string]string{"X-Test-Token": "secret"}, Transport: transport}, events, tokens
}

// gone reports whether pid has exited (it is absent or a zombie).
func gone(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}

// groupMembers lists the live processes in process group pgid.
func groupMembers(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
		// fields: state ppid pgrp …
		if len(fields) > 2 && fields[0] != "Z" && fields[2] == strconv.Itoa(pgid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitGone waits until every pid has exited and the group is empty.
func waitGone(t testing.TB, pgid int, pids ...int) {
	t.Helper()
	guard := time.Now().Add(hangGuard)
	for {
		alive := groupMembers(pgid)
		for _, pid := range pids {
			if !gone(pid) {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 {
			return
		}
		if time.Now().After(guard) {
			t.Fatalf("processes left after Close: %v", alive)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
