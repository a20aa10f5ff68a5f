//go:build linux

package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

var testToolNames = []string{"add_tool", "block", "crash", "echo", "env", "fail", "image", "pids", "resource"}

// TestTestServer runs the same calls against the SDK-built server over
// stdio (the test binary re-executed), streamable HTTP and SSE.
func TestTestServer(t *testing.T) {
	httpCfg, _, tokens := httpServer(t, "web")
	sseCfg, _, sseTokens := webServer(t, "events", TransportSSE)
	transports := []struct {
		name string
		cfg  Server
	}{
		{"stdio", stdioServer("local", nil)},
		{"http", httpCfg},
		{"sse", sseCfg},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := newSession(t, []Server{tr.cfg}, Options{})
			prefix := "mcp__" + tr.cfg.Name + "__"
			var want []string
			for _, n := range testToolNames {
				want = append(want, prefix+n)
			}
			got := s.names()
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("tools = %v, want %v", got, want)
			}
			echo := s.reg.Get(prefix+"echo", s.scope)
			var schema struct {
				Type       string
				Properties map[string]struct{ Type, Description string }
				Required   []string
			}
			if err := json.Unmarshal([]byte(echo.Parameters()), &schema); err != nil {
				t.Fatal(err)
			}
			if schema.Type != "object" || schema.Properties["text"].Description != "what to echo" || !slices.Equal(schema.Required, []string{"text"}) {
				t.Errorf("echo schema = %s", echo.Parameters())
			}
			if echo.Description() != "Echo the text back." || echo.Effect() != registry.EffectExternal {
				t.Errorf("echo description %q, effect %v", echo.Description(), echo.Effect())
			}

			calls := []struct {
				tool, args string
				content    []presentation.ContentBlock
				code       string
			}{
				{"echo", `{"text":"hi"}`, []presentation.ContentBlock{presentation.Text("echo: hi")}, ""},
				{"fail", `{}`, []presentation.ContentBlock{presentation.Text("Error: it broke")}, CodeToolError},
				{"image", `{}`, []presentation.ContentBlock{presentation.Text("here"),
					presentation.ImageBlock{MimeType: "image/png", Data: base64.StdEncoding.EncodeToString([]byte("PNG!"))}}, ""},
				{"resource", `{}`, []presentation.ContentBlock{presentation.Text("Resource file:///notes.txt:\nremember")}, ""},
				{"echo", `{"text":5}`, []presentation.ContentBlock{presentation.Text("Error: invalid arguments: at '/text': got number, want string")}, registry.CodeInvalidArgs},
				{"echo", `{}`, []presentation.ContentBlock{presentation.Text("Error: invalid arguments: at '': missing property 'text'")}, registry.CodeInvalidArgs},
			}
			for _, c := range calls {
				r := s.mustCall(prefix+c.tool, c.args)
				if r.IsError != (c.code != "") || r.Code() != c.code {
					t.Errorf("%s: isError %v code %q (%v), want code %q", c.tool, r.IsError, r.Code(), r.Content, c.code)
				}
				if !slices.Equal(r.Content, c.content) {
					t.Errorf("%s: content %#v, want %#v", c.tool, r.Content, c.content)
				}
			}
			r := s.mustCall(prefix+"echo", `{"text":"card"}`)
			b, _ := s.reg.Get(prefix+"echo", s.scope).Bind(registry.Arguments{})
			if v, ok := b.PresentCall().(presentation.GenericCallView); !ok || v.Title != tr.cfg.Name+": echo" {
				t.Errorf("call card = %#v", b.PresentCall())
			}
			if v, ok := b.PresentResult(r.ToolResult()).(presentation.GenericResultView); !ok || v.Title != tr.cfg.Name+": echo" || !slices.Equal(v.Content, r.Content) {
				t.Errorf("result card = %#v", b.PresentResult(r.ToolResult()))
			}
		})
	}
	for _, ch := range []chan string{tokens, sseTokens} {
		if tok := <-ch; tok != "secret" {
			t.Errorf("request carried X-Test-Token %q, want the configured header", tok)
		}
	}
}

// TestCancellationReachesServer cancels a call blocked in the server and
// waits for the server to see its context end.
func TestCancellationReachesServer(t *testing.T) {
	ev := newEvents(t)
	httpCfg, httpEvents, _ := httpServer(t, "web")
	sseCfg, sseEvents, _ := webServer(t, "events", TransportSSE)
	cases := []struct {
		name string
		cfg  Server
		next func() string
	}{
		{"stdio", stdioServer("local", ev), func() string { return ev.next(t) }},
		{"http", httpCfg, func() string { return <-httpEvents }},
		{"sse", sseCfg, func() string { return <-sseEvents }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t, []Server{c.cfg}, Options{})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan registryResult, 1)
			go func() {
				r := s.call(ctx, "mcp__"+c.cfg.Name+"__block", `{}`)
				done <- registryResult{r.IsError, r.Code()}
			}()
			// Cancel once the server runs the call; cancelling earlier would
			// test the pipeline, not the server.
			if got := c.next(); got != "block started" {
				t.Fatalf("server event %q, want block started", got)
			}
			cancel()
			if got := c.next(); got != "block cancelled" {
				t.Fatalf("server event %q, want block cancelled", got)
			}
			if r := <-done; !r.isError {
				t.Errorf("cancelled call did not fail: %+v", r)
			}
		})
	}
}

// TestCallTimeout ends a call that outlives Options.CallTimeout with the
// pipeline's timeout error, and the server sees it cancelled. The timeout is
// short so the test does not idle; nothing measures it.
func TestCallTimeout(t *testing.T) {
	ev := newEvents(t)
	s := newSession(t, []Server{stdioServer("slow", ev)}, Options{CallTimeout: 100 * time.Millisecond})
	r := s.mustCall("mcp__slow__block", `{}`)
	if !r.IsError || r.Code() != registry.CodeToolTimeout {
		t.Errorf("isError %v code %q %v, want a timeout", r.IsError, r.Code(), r.Content)
	}
	for _, want := range []string{"block started", "block cancelled"} {
		if got := ev.next(t); got != want {
			t.Fatalf("server event %q, want %q", got, want)
		}
	}
}

type registryResult struct {
	isError bool
	code    string
}

// TestCrashMidCall ends a stdio server during a call: the call fails
// naming the server, Report gets its stderr, its tools go, and the other
// server keeps working.
func TestCrashMidCall(t *testing.T) {
	s := newSession(t, []Server{stdioServer("doomed", nil), stdioServer("steady", nil)}, Options{})
	r := s.mustCall("mcp__doomed__crash", `{}`)
	if !r.IsError || r.Code() != CodeServerStopped || !strings.Contains(presentation.JoinText(r.Content), `"doomed"`) {
		t.Errorf("crash call: isError %v code %q %q", r.IsError, r.Code(), presentation.JoinText(r.Content))
	}
	rep := s.nextReport()
	if rep.server != "doomed" || !strings.Contains(rep.message, "crashing on purpose") {
		t.Errorf("report = %+v, want doomed with its stderr", rep)
	}
	s.waitFor("doomed's tools leave", func() bool {
		return !slices.Contains(s.names(), "mcp__doomed__echo")
	})
	if got := s.servers.Tools(); len(got) != len(testToolNames) {
		t.Errorf("%d tools after the crash, want steady's %d", len(got), len(testToolNames))
	}
	if r := s.mustCall("mcp__steady__echo", `{"text":"ok"}`); r.IsError {
		t.Errorf("steady failed after doomed crashed: %v", r.Content)
	}
}

// TestStartFailures leaves out servers that cannot start and reports each
// with its error and stderr tail.
func TestStartFailures(t *testing.T) {
	configs := []Server{
		{Name: "exits", Command: os.Args[0], Env: map[string]string{helperEnv: helperFail}},
		{Name: "missing", Command: filepath.Join(t.TempDir(), "no-such-server")},
		{Name: "unconfigured", Transport: TransportStdio},
		{Name: "strange", URL: "http://localhost", Transport: "carrier-pigeon"},
		{Name: "offline", URL: "http://127.0.0.1:1/mcp"},
		stdioServer("fine", nil),
	}
	s := newSession(t, configs, Options{})
	want := map[string]string{
		"exits":        "cannot read config: /nowhere/config.json: no such file",
		"missing":      "no-such-server",
		"unconfigured": "needs a command",
		"strange":      "unknown transport",
		"offline":      "failed to start",
	}
	for range want {
		rep := s.nextReport()
		if w, ok := want[rep.server]; !ok || !strings.Contains(rep.message, w) {
			t.Errorf("report %+v, want one for %q containing %q", rep, rep.server, w)
		}
		delete(want, rep.server)
	}
	if got := len(s.names()); got != len(testToolNames) {
		t.Errorf("%d tools, want fine's %d", got, len(testToolNames))
	}
}

// TestConnectTimeout gives up on a server that never answers initialize,
// reports it and leaves no process behind. The timeout is short so the test
// does not idle; nothing measures it.
func TestConnectTimeout(t *testing.T) {
	s := newSession(t, []Server{{Name: "silent", Command: os.Args[0], Env: map[string]string{helperEnv: helperSleeper}}},
		Options{ConnectTimeout: 200 * time.Millisecond})
	if rep := s.nextReport(); rep.server != "silent" || !strings.Contains(rep.message, "deadline exceeded") {
		t.Errorf("report = %+v, want silent timed out", rep)
	}
	if names := s.names(); len(names) != 0 {
		t.Errorf("tools %v from a server that never started", names)
	}
}

// TestToolListChanged honours tools/list_changed.
func TestToolListChanged(t *testing.T) {
	s := newSession(t, []Server{stdioServer("grows", nil)}, Options{})
	if r := s.mustCall("mcp__grows__add_tool", `{}`); r.IsError {
		t.Fatalf("add_tool: %v", r.Content)
	}
	s.waitFor("the new tool is registered", func() bool {
		return slices.Contains(s.names(), "mcp__grows__extra")
	})
	if r := s.mustCall("mcp__grows__extra", `{}`); r.IsError || presentation.JoinText(r.Content) != "extra" {
		t.Errorf("extra: %v", r.Content)
	}
}

// TestCloseLeavesNoProcess checks /proc after Close: the server, the child
// it started and its whole process group are gone.
func TestCloseLeavesNoProcess(t *testing.T) {
	s := newSession(t, []Server{stdioServer("parent", nil)}, Options{})
	r := s.mustCall("mcp__parent__pids", `{}`)
	fields := strings.Fields(presentation.JoinText(r.Content))
	if len(fields) != 2 {
		t.Fatalf("pids = %v", r.Content)
	}
	server, _ := strconv.Atoi(fields[0])
	child, _ := strconv.Atoi(fields[1])
	if gone(server) || gone(child) {
		t.Fatalf("server %d or child %d not running before Close", server, child)
	}
	if err := s.servers.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	waitGone(t, server, server, child)
	if r := s.mustCall("mcp__parent__echo", `{"text":"late"}`); !r.IsError || r.Code() != CodeServerStopped {
		t.Errorf("call after Close: isError %v code %q", r.IsError, r.Code())
	}
}

// TestServerEnvironment: a stdio server never sees the agent's model key
// nor another secret of its environment, unless EnvAllow lets the latter
// through; it does see what its configuration names.
func TestServerEnvironment(t *testing.T) {
	t.Setenv("DSH_API_KEY", "sk-model-key-0123456789")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-0123456789")
	t.Setenv("PLAIN_SETTING", "plain")
	const names = `{"text":"DSH_API_KEY AWS_SECRET_ACCESS_KEY PLAIN_SETTING CONFIGURED_TOKEN"}`
	for _, tt := range []struct {
		name  string
		allow []string
		want  string
	}{
		{"scrubbed", nil, "DSH_API_KEY unset\nAWS_SECRET_ACCESS_KEY unset\nPLAIN_SETTING=plain\nCONFIGURED_TOKEN=configured"},
		{"allowed", []string{"aws_*", "DSH_*"}, "DSH_API_KEY unset\nAWS_SECRET_ACCESS_KEY=aws-secret-0123456789\nPLAIN_SETTING=plain\nCONFIGURED_TOKEN=configured"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := stdioServer("envs", nil)
			cfg.Env["CONFIGURED_TOKEN"] = "configured"
			s := newSession(t, []Server{cfg}, Options{EnvAllow: tt.allow})
			if got := presentation.JoinText(s.mustCall("mcp__envs__env", names).Content); got != tt.want {
				t.Errorf("the server's environment:\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestCloseStopsStrays: a server started as `sh -c 'stray & exec server'`
// leaves a process of its own running beside it; Close stops it with the
// server, politely first (SIGTERM to the whole group: the stray's trap
// runs), and returns only once it is gone.
func TestCloseStopsStrays(t *testing.T) {
	dir := t.TempDir()
	fifo, termFile := filepath.Join(dir, "stray.pid"), filepath.Join(dir, "terminated")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	stray := fmt.Sprintf(`trap 'echo terminated > %s; exit 0' TERM; echo $$ > %s; sleep 1000 & wait`, termFile, fifo)
	cfg := Server{Name: "strays", Command: "sh", Args: []string{"-c", "sh -c \"$1\" & exec \"$0\"", os.Args[0], stray},
		Env: map[string]string{helperEnv: helperServer}}
	s := newSession(t, []Server{cfg}, Options{})
	pidText, err := os.ReadFile(fifo) // the stray's pid, once its trap is set
	if err != nil {
		t.Fatal(err)
	}
	strayPid, err := strconv.Atoi(strings.TrimSpace(string(pidText)))
	if err != nil {
		t.Fatalf("stray pid %q: %v", pidText, err)
	}
	fields := strings.Fields(presentation.JoinText(s.mustCall("mcp__strays__pids", `{}`).Content))
	server, _ := strconv.Atoi(fields[0])
	if gone(strayPid) || gone(server) {
		t.Fatalf("stray %d or server %d not running before Close", strayPid, server)
	}
	if err := s.servers.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	waitGone(t, server, server, strayPid)
	if got, err := os.ReadFile(termFile); err != nil || strings.TrimSpace(string(got)) != "terminated" {
		t.Errorf("the stray was not asked to stop with SIGTERM first: %q, %v", got, err)
	}
}
