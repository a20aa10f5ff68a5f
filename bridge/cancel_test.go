package bridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// sleeper is a command that leaves two processes behind in its group and
// writes its group's pids (bash's own, the group leader, first).
func sleeper(pidFile string) string {
	return fmt.Sprintf("echo $$ > %[1]s.tmp; sleep 300 & echo $! >> %[1]s.tmp; mv %[1]s.tmp %[1]s; sleep 300; wait", pidFile)
}

// commandGroup waits for a sleeper's pid file and returns its pids and
// process group, making sure the test kills them whatever happens.
func commandGroup(t *testing.T, pidFile string) (pids []int, pgid int) {
	t.Helper()
	pids = readPids(t, pidFile, 2)
	t.Cleanup(func() { killAll(pids) })
	pgid = pids[0]
	if _, pgrp, ok := procStat(pgid); !ok || pgrp != pgid {
		t.Fatalf("bash (%d) is not its group's leader (group %d, running %t)", pgid, pgrp, ok)
	}
	if live := anyAlive(pids, 0); len(live) != 2 {
		t.Fatalf("the command's processes are not running: %v of %v", live, pids)
	}
	return pids, pgid
}

// TestCancelRunningCommand: session/cancel during a command answers
// cancelled exactly once and kills the command's whole process group.
func TestCancelRunningCommand(t *testing.T) {
	model := llm.NewScripted(toolStep("c_sleep", "bash", map[string]any{"command": sleeper("pids")}), llm.Message{Content: "ok"})
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess))
	e.initialize(zedInitialize)
	newEditor(e.c, map[string]string{})
	s := e.newSession("")
	p := e.startPrompt(s, "sleep")
	pids, pgid := commandGroup(t, e.dir+"/pids")

	e.cancel(s)
	if got := p.stop(); got != "cancelled" {
		t.Errorf("stopReason = %s, want cancelled", got)
	}
	// How fast the group dies is a benchmark's business; here it must die.
	eventually(t, "the command's process group to die after session/cancel", func() bool {
		return len(anyAlive(pids, pgid)) == 0
	})
	c := forCall(e.updates(s), "c_sleep")
	if st := finalStatus(c); st != "failed" || countStatus(c, "failed") != 1 {
		t.Errorf("the killed command's statuses: %v, want one failed", statuses(c))
	}
	// The session serves the next prompt.
	if got := e.prompt(s, "again?"); got != "end_turn" {
		t.Errorf("next prompt = %s", got)
	}
}

// TestCancelPendingPermission: session/cancel while the permission prompt
// is open answers cancelled; the request is withdrawn, so the client's
// late "allow" runs nothing.
func TestCancelPendingPermission(t *testing.T) {
	model := llm.NewScripted(toolStep("c_ask", "bash", map[string]any{"command": "touch marker"}), llm.Message{Content: "fine"})
	e := newEnv(t, withProvider(model))
	asked := make(chan struct{}, 1)
	release := make(chan struct{})
	e.c.Handle("session/request_permission", func(ctx context.Context, _ json.RawMessage) (any, error) {
		asked <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return selected("allow-once"), nil
	})
	e.initialize(plainInitialize)
	s := e.newSession("")
	p := e.startPrompt(s, "touch")
	<-asked
	e.cancel(s)
	if got := p.stop(); got != "cancelled" {
		t.Errorf("stopReason = %s, want cancelled", got)
	}
	// The agent withdraws the request it no longer waits for.
	withdrawn := e.waitFrame("$/cancel_request", acptest.MethodFrame("$/cancel_request"))
	if !strings.Contains(string(withdrawn.Params), `"requestId"`) {
		t.Errorf("withdrawal = %s", withdrawn.Raw)
	}
	close(release) // the late answer: allow
	if got := e.prompt(s, "next"); got != "end_turn" {
		t.Errorf("the next prompt = %s", got)
	}
	if readFile(t, e.dir+"/marker") != "<absent>" {
		t.Errorf("the command ran on a withdrawn permission request")
	}
	c := forCall(e.updates(s), "c_ask")
	if countStatus(c, "completed") != 0 || countStatus(c, "in_progress") != 0 {
		t.Errorf("the withdrawn call's statuses: %v", statuses(c))
	}
	if agentText(e.updates(s)) != "fine" {
		t.Errorf("agent text = %q", agentText(e.updates(s)))
	}
}

// TestCancelModelB106B107B108B109 cancels while the model streams, right
// after the prompt, while idle, and follows a cancel with a new prompt at
// once.
func TestCancelModelB106B107B108B109(t *testing.T) {
	// The model streams "partial" and a quick read-only call, then blocks
	// the next request of a "first" prompt until it is cancelled; other
	// prompts are answered at once.
	model := func() *gate {
		return newGate(func(ctx context.Context, req llm.Request) (*llm.Stream, bool) {
			last := req.Messages[len(req.Messages)-1]
			switch {
			case lastUser(req) != "first":
				return textStream(ctx, "answer to "+lastUser(req)), true
			case last.Role == llm.RoleUser:
				return llm.StreamOf(ctx, llm.TextDelta{Text: "partial "},
					llm.ToolCallDelta{Index: 0, ID: "c_glob", Name: "glob", Arguments: `{"pattern":"*"}`},
					llm.Finish{Reason: llm.FinishToolCalls}), true
			}
			return nil, false
		})
	}
	t.Run("B106 cancel mid-stream answers cancelled", func(t *testing.T) {
		g := model()
		e := newEnv(t, withProvider(g))
		e.initialize(plainInitialize)
		s := e.newSession("")
		p := e.startPrompt(s, "first")
		g.waitStarted(t)
		e.waitUpdate(s, "the partial text", func(u update) bool { return u.Kind == "agent_message_chunk" })
		e.cancel(s)
		if got := p.stop(); got != "cancelled" {
			t.Errorf("stopReason = %s", got)
		}
		// The text before the tool call ends with a paragraph break.
		if txt := agentText(e.updates(s)); txt != "partial \n\n" {
			t.Errorf("agent text = %q", txt)
		}
	})
	t.Run("B107 cancel right after the prompt", func(t *testing.T) {
		g := model()
		e := newEnv(t, withProvider(g))
		e.initialize(plainInitialize)
		s := e.newSession("")
		p := e.startPrompt(s, "first")
		e.cancel(s)
		if got := p.stop(); got != "cancelled" {
			t.Errorf("stopReason = %s", got)
		}
		if n := len(g.started); n > 1 {
			t.Errorf("%d model requests blocked, want at most one turn", n)
		}
	})
	t.Run("B108 an idle cancel, then a prompt runs normally", func(t *testing.T) {
		e := newEnv(t, withProvider(model()))
		e.initialize(plainInitialize)
		s := e.newSession("")
		e.cancel(s)
		if got := e.prompt(s, "second"); got != "end_turn" {
			t.Errorf("stopReason = %s", got)
		}
		e.cancel(s) // and after a finished turn
		if got := e.prompt(s, "third"); got != "end_turn" {
			t.Errorf("stopReason = %s", got)
		}
		if txt := agentText(e.updates(s)); txt != "answer to secondanswer to third" {
			t.Errorf("agent text = %q", txt)
		}
	})
	t.Run("B109 cancel mid-stream, then a new prompt at once", func(t *testing.T) {
		g := model()
		e := newEnv(t, withProvider(g))
		e.initialize(plainInitialize)
		s := e.newSession("")
		first := e.startPrompt(s, "first")
		g.waitStarted(t)
		e.cancel(s)
		second := e.startPrompt(s, "second")
		if got := first.stop(); got != "cancelled" {
			t.Errorf("first = %s", got)
		}
		if got := second.stop(); got != "end_turn" {
			t.Errorf("second = %s, want end_turn", got)
		}
		if txt := agentText(e.updates(s)); !strings.HasSuffix(txt, "answer to second") {
			t.Errorf("agent text = %q", txt)
		}
	})
}

// TestCancelUnknownSessionB89B180: cancelling a ghost is a no-op and
// leaves other sessions alone.
func TestCancelUnknownSessionB89B180(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	e := newEnv(t, withProvider(providerFunc(func(ctx context.Context, req llm.Request) (*llm.Stream, error) {
		started <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return textStream(ctx, "still here"), nil
	})))
	e.initialize(plainInitialize)
	s := e.newSession("")
	p := e.startPrompt(s, "work")
	<-started
	e.cancel("ghost")
	e.cancel("")
	if err := e.c.Notify("session/cancel", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	other := e.newSession("") // the server still serves
	close(release)
	if got := p.stop(); got != "end_turn" {
		t.Errorf("the running prompt = %s", got)
	}
	if got := e.prompt(other, "hi"); got != "end_turn" {
		t.Errorf("the other session = %s", got)
	}
}

// echoModel answers "reply for <prompt>" in several deltas once released
// (so a test can have several prompts running at once); prompts starting
// with "block" wait until cancelled. Every request is announced on
// arrived.
type echoModel struct {
	arrived chan string
	release chan struct{}
}

func newEchoModel() *echoModel {
	return &echoModel{arrived: make(chan string, 16), release: make(chan struct{})}
}

func (m *echoModel) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	user := lastUser(req)
	m.arrived <- user
	wait := m.release
	if strings.HasPrefix(user, "block") {
		wait = nil
	}
	select {
	case <-wait:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return textStream(ctx, "reply for "+user+" in a few words"), nil
}

func (m *echoModel) waitArrived(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-m.arrived:
		case <-time.After(waitTimeout):
			t.Fatal("a prompt never reached the model")
		}
	}
}

// TestMultiSessionB177B178B179: sessions on one connection are isolated.
func TestMultiSessionB177B178B179(t *testing.T) {
	t.Run("B177 concurrent prompts stream only on their own session", func(t *testing.T) {
		m := newEchoModel()
		e := newEnv(t, withProvider(m))
		e.initialize(plainInitialize)
		a, b := e.newSession(""), e.newSession("")
		pa, pb := e.startPrompt(a, "alpha"), e.startPrompt(b, "beta")
		m.waitArrived(t, 2) // both turns are running
		close(m.release)
		if ra, rb := pa.stop(), pb.stop(); ra != "end_turn" || rb != "end_turn" {
			t.Errorf("stop reasons %s, %s", ra, rb)
		}
		if txt := agentText(e.updates(a)); txt != "reply for alpha in a few words" {
			t.Errorf("session a: %q", txt)
		}
		if txt := agentText(e.updates(b)); txt != "reply for beta in a few words" {
			t.Errorf("session b: %q", txt)
		}
	})
	t.Run("B178 cancelling A leaves B intact", func(t *testing.T) {
		m := newEchoModel()
		e := newEnv(t, withProvider(m))
		e.initialize(plainInitialize)
		a, b := e.newSession(""), e.newSession("")
		pa, pb := e.startPrompt(a, "block a"), e.startPrompt(b, "beta")
		m.waitArrived(t, 2)
		e.cancel(a)
		if got := pa.stop(); got != "cancelled" {
			t.Errorf("A = %s", got)
		}
		close(m.release)
		if got := pb.stop(); got != "end_turn" {
			t.Errorf("B = %s", got)
		}
		if txt := agentText(e.updates(b)); txt != "reply for beta in a few words" {
			t.Errorf("session b: %q", txt)
		}
		for _, u := range e.updates(a) {
			if u.Kind != "session_info_update" { // its title, from its prompt
				t.Errorf("session a got an update: %s", u.Raw)
			}
		}
	})
	t.Run("B179 prompts queue per session, not per connection; a cancel ends the running and the queued", func(t *testing.T) {
		m := newEchoModel()
		e := newEnv(t, withProvider(m))
		e.initialize(plainInitialize)
		a, b := e.newSession(""), e.newSession("")
		pa := e.startPrompt(a, "block a")
		m.waitArrived(t, 1)
		queued := e.startPrompt(a, "again")
		close(m.release)
		if got := e.prompt(b, "beta"); got != "end_turn" {
			t.Errorf("B = %s", got)
		}
		e.cancel(a)
		if got := pa.stop(); got != "cancelled" {
			t.Errorf("A = %s", got)
		}
		if got := queued.stop(); got != "cancelled" {
			t.Errorf("A's queued prompt = %s", got)
		}
	})
}

// TestDisconnectB165B169B181: the client's EOF mid-prompt ends Serve
// cleanly; Bridge.Close ends every turn and kills every process group;
// afterwards sessions are refused (B166, B168).
func TestDisconnectB165B169B181(t *testing.T) {
	model := newGate(func(ctx context.Context, req llm.Request) (*llm.Stream, bool) {
		if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleUser && strings.HasPrefix(lastUser(req), "run ") {
			file := strings.TrimPrefix(lastUser(req), "run ")
			return callStream(ctx, call("c_"+file, "bash", map[string]any{"command": sleeper(file)})), true
		}
		return nil, false // "think": block in the model
	})
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess))
	e.initialize(zedInitialize)
	newEditor(e.c, map[string]string{})
	var prompts []*pending
	var groups []int
	var all []int
	for _, file := range []string{"a.pids", "b.pids"} {
		s := e.newSession("")
		prompts = append(prompts, e.startPrompt(s, "run "+file))
		pids, pgid := commandGroup(t, e.dir+"/"+file)
		all = append(all, pids...)
		groups = append(groups, pgid)
	}
	thinking := e.newSession("")
	prompts = append(prompts, e.startPrompt(thinking, "think"))
	model.waitStarted(t)
	for _, p := range prompts {
		p.abandon()
	}
	factoryCalls := e.factoryCalls.Load()

	if err := e.c.Close(); err != nil { // EOF; Serve returns, then Bridge.Close
		t.Fatalf("the server ended with %v, want nil on EOF", err)
	}
	for _, pgid := range groups {
		eventually(t, "the process groups to end", func() bool { return len(anyAlive(all, pgid)) == 0 })
	}

	b := e.bridge()
	ctx := testCtx(t)
	_, err := b.NewSession(ctx, acp.NewSessionRequest{NewSessionRequest: acpsdk.NewSessionRequest{Cwd: e.dir, McpServers: []acpsdk.McpServer{}}})
	wantRPCError(t, asRPC(err), -32603, "closing")
	if n := e.factoryCalls.Load(); n != factoryCalls {
		t.Errorf("session/new after Close built a session")
	}
	_, err = b.Prompt(ctx, acpsdk.PromptRequest{SessionId: acpsdk.SessionId(thinking), Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock("hi")}})
	wantRPCError(t, asRPC(err), -32603, "closing")
	b.Close() // idempotent
}

// TestBridgeCloseEndsTurnsB165B166: Bridge.Close while the client is still
// connected answers the running prompt cancelled, and refuses new
// sessions with a clear error.
func TestBridgeCloseEndsTurnsB165B166(t *testing.T) {
	g := newGate(nil)
	e := newEnv(t, withProvider(g))
	e.initialize(plainInitialize)
	s := e.newSession("")
	p := e.startPrompt(s, "think")
	g.waitStarted(t)
	var closed atomic.Bool
	go func() {
		e.bridge().Close()
		closed.Store(true)
	}()
	if got := p.stop(); got != "cancelled" {
		t.Errorf("stopReason = %s, want cancelled", got)
	}
	eventually(t, "Close to return", closed.Load)
	calls := e.factoryCalls.Load()
	err := e.c.Call(testCtx(t), "session/new", acpsdk.NewSessionRequest{Cwd: e.dir, McpServers: []acpsdk.McpServer{}}, nil)
	wantRPCError(t, err, -32603, "closing")
	_, rpcErr := e.startPrompt(s, "again").wait()
	wantRPCError(t, rpcErr, -32603, "closing")
	if e.factoryCalls.Load() != calls {
		t.Errorf("a session was built after Close")
	}
	// initialize and cancel still answer.
	e.initialize(plainInitialize)
	e.cancel(s)
}
