package subagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/subagent"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// hangGuard bounds a wait for an event that should come at once; it only
// keeps a broken test from hanging.
const hangGuard = 30 * time.Second

// routedModel is a fake model that answers each conversation by its first
// user message (the prompt a parent or a child was given): each
// conversation has its own script, one step per request. It records every
// request and how many are in flight, and can hold a request until told.
type routedModel struct {
	mu       sync.Mutex
	scripts  map[string][]llm.Message
	served   map[string]int
	requests map[string][]llm.Request
	inFlight int
	peak     int
	changed  chan struct{}
	// hold, when set, is called for each request before it is answered,
	// outside the lock; it may block (honouring ctx).
	hold func(ctx context.Context, route string) error
}

func newRoutedModel() *routedModel {
	return &routedModel{
		scripts: map[string][]llm.Message{}, served: map[string]int{},
		requests: map[string][]llm.Request{}, changed: make(chan struct{}),
	}
}

// script sets what the conversation opened by prompt is answered.
func (m *routedModel) script(prompt string, steps ...llm.Message) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.scripts[prompt] = steps
}

func route(req llm.Request) string {
	for _, msg := range req.Messages {
		if msg.Role == llm.RoleUser {
			return msg.Content
		}
	}
	return ""
}

func (m *routedModel) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	r := route(req)
	m.mu.Lock()
	m.requests[r] = append(m.requests[r], req)
	m.inFlight++
	m.peak = max(m.peak, m.inFlight)
	m.broadcastLocked()
	hold := m.hold
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		m.inFlight--
		m.broadcastLocked()
		m.mu.Unlock()
	}()
	if hold != nil {
		if err := hold(ctx, r); err != nil {
			return nil, err
		}
	}
	m.mu.Lock()
	var step llm.Message
	if n := m.served[r]; n < len(m.scripts[r]) {
		step = m.scripts[r][n]
	}
	m.served[r]++
	m.mu.Unlock()
	return llm.NewScripted(step).Stream(ctx, req)
}

func (m *routedModel) broadcastLocked() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// waitFor waits until cond holds over the model's state.
func (m *routedModel) waitFor(ctx context.Context, cond func(m *routedModel) bool) error {
	for {
		m.mu.Lock()
		ok, changed := cond(m), m.changed
		m.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (m *routedModel) requestsOf(prompt string) []llm.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests[prompt])
}

func toolNames(req llm.Request) []string {
	var names []string
	for _, t := range req.Tools {
		names = append(names, t.Name)
	}
	return names
}

// call is a model step calling one tool.
func call(id, name string, args any) llm.ToolCall {
	data, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return llm.ToolCall{ID: id, Name: name, Arguments: string(data)}
}

func calls(cs ...llm.ToolCall) llm.Message {
	return llm.Message{Role: llm.RoleAssistant, ToolCalls: cs}
}

func answer(text string) llm.Message {
	return llm.Message{Role: llm.RoleAssistant, Content: text}
}

// fixture is a parent agent with a task tool over fake tools, the real
// permission policy and an approver the test answers.
type fixture struct {
	t      testing.TB
	reg    *registry.Registry
	pipe   *pipeline.Pipeline
	scope  *registry.Scope
	log    *session.Log
	model  *routedModel
	pol    *policy.Policy
	runner *subagent.Runner
	agent  *agent.Agent
	// asks receives every approval request; the test answers on its
	// reply channel.
	asks chan ask
}

type ask struct {
	req   pipeline.ApprovalRequest
	reply chan pipeline.ApprovalOutcome
}

type fixtureOptions struct {
	types       []subagent.Type
	maxParallel int
	maxSteps    int
	maxDepth    int
	preset      policy.Preset
}

func newFixture(t testing.TB, o fixtureOptions) *fixture {
	t.Helper()
	f := &fixture{t: t, reg: registry.New(), log: session.NewLog(nil), model: newRoutedModel(), asks: make(chan ask)}
	ws, err := workspace.New(t.TempDir(), nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	f.pipe = pipeline.New(f.reg, pipeline.Options{Approver: pipeline.ApproverFunc(func(ctx context.Context, req pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
		a := ask{req: req, reply: make(chan pipeline.ApprovalOutcome, 1)}
		select {
		case f.asks <- a:
		case <-ctx.Done():
			return pipeline.ApprovalCancelled, nil
		}
		select {
		case out := <-a.reply:
			return out, nil
		case <-ctx.Done():
			return pipeline.ApprovalCancelled, nil
		}
	})})
	f.scope = f.reg.NewScope("session", nil)
	t.Cleanup(f.scope.Close)
	for _, tool := range fakeTools(t) {
		if _, err := f.reg.Register(f.scope, tool); err != nil {
			t.Fatal(err)
		}
	}
	preset := o.preset
	if preset == "" {
		preset = policy.WorkspaceWrite
	}
	f.pol = policy.New(f.reg, ws, preset)
	f.pipe.UsePreExecute(f.scope, f.pol.PreExecute)
	base := agent.Options{
		Provider: f.model, Cwd: ws.Cwd(), Platform: "linux/amd64",
		Now: func() time.Time { return time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC) },
	}
	f.runner, err = subagent.New(subagent.Options{
		Pipeline: f.pipe, Scope: f.scope, Log: f.log, Agent: base, Types: o.types,
		MaxParallel: o.maxParallel, MaxSteps: o.maxSteps, MaxDepth: o.maxDepth,
		Policy: func(t subagent.Type) pipeline.PreExecute {
			if t.ReadOnly {
				return f.pol.PreExecuteAtMost(policy.ReadOnly)
			}
			return f.pol.PreExecute
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	task, err := f.runner.Tool()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.reg.Register(f.scope, task); err != nil {
		t.Fatal(err)
	}
	parent := base
	parent.Pipeline, parent.Scope, parent.Log = f.pipe, f.scope, f.log
	f.agent, err = agent.New(parent)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// prompt runs one parent turn for text.
func (f *fixture) prompt(ctx context.Context, text string) (session.StopReason, error) {
	return f.agent.Prompt(ctx, []presentation.ContentBlock{presentation.Text(text)})
}

// result returns the parent's result of the call id.
func (f *fixture) result(id string) session.ToolResult {
	f.t.Helper()
	for _, ev := range f.log.Events() {
		if r, ok := ev.Payload.(session.ToolResult); ok && r.CallID == id {
			return r
		}
	}
	f.t.Fatalf("no result of %s in the parent's log", id)
	return session.ToolResult{}
}

// fakeArgs are every fake tool's arguments.
type fakeArgs struct {
	Path    string `json:"path,omitempty"`
	Command string `json:"command,omitempty"`
}

// fakeTools are stand-ins for the session's tools, with their names and
// effects: read defers a context (as diagnostics would), bash reports
// the command it "ran".
func fakeTools(t testing.TB) []*registry.Tool {
	t.Helper()
	type def struct {
		name   string
		effect registry.Effect
		safe   bool
		body   func(call *registry.Call, a fakeArgs) string
	}
	defs := []def{
		{"read", registry.EffectRead, true, func(call *registry.Call, a fakeArgs) string {
			call.DeferContext(registry.UserContext("diagnostics for " + a.Path))
			return "contents of " + a.Path
		}},
		{"grep", registry.EffectRead, true, func(_ *registry.Call, a fakeArgs) string { return "matches" }},
		{"glob", registry.EffectRead, true, func(_ *registry.Call, a fakeArgs) string { return "paths" }},
		{"write", registry.EffectWrite, false, func(_ *registry.Call, a fakeArgs) string { return "wrote " + a.Path }},
		{"edit", registry.EffectWrite, false, func(_ *registry.Call, a fakeArgs) string { return "edited " + a.Path }},
		{"bash", registry.EffectExecute, false, func(_ *registry.Call, a fakeArgs) string { return "ran " + a.Command }},
		{"todo_write", registry.EffectOther, false, func(_ *registry.Call, a fakeArgs) string { return "planned" }},
	}
	var tools []*registry.Tool
	for _, d := range defs {
		tool, err := registry.Define(registry.Spec[fakeArgs, string]{
			Name: d.name, Description: d.name + " (fake)", Effect: d.effect,
			Handler: func(_ context.Context, call *registry.Call, a fakeArgs) (string, error) { return d.body(call, a), nil },
			Paths: func(a fakeArgs) []string {
				if a.Path == "" {
					return nil
				}
				return []string{a.Path}
			},
			ConcurrencySafe: func(fakeArgs) bool { return d.safe },
		})
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool)
	}
	return tools
}

// childEvents returns the payloads the parent's log holds for the
// children of the task call id, in order.
func (f *fixture) childEvents(callID string) []session.Payload {
	var out []session.Payload
	for _, ev := range f.log.Events() {
		switch p := ev.Payload.(type) {
		case session.SubagentEvent:
			if p.CallID == callID {
				out = append(out, p.Payload)
			}
		}
	}
	return out
}

func text(r session.ToolResult) string { return presentation.JoinText(r.Content) }

func mustContain(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s = %q, want it to contain %q", what, s, w)
		}
	}
}

var _ = fmt.Sprintf
