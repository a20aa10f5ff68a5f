package subagent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/schema"
	"github.com/dsh-acp/dsh-acp/session"
)

// child is one running child agent.
type child struct {
	r    *Runner
	id   string
	call *registry.Call
	t    Type
	log  *session.Log
	box  *resultBox // nil without output_schema
}

// runChild runs a child of type t for the task call, from its start,
// recorded in the parent's log, to its end, and returns its answer.
func (r *Runner) runChild(ctx context.Context, call *registry.Call, t Type, args TaskArgs, out *schema.Schema) (string, error) {
	if r.readOnly {
		t.ReadOnly = true
	}
	c := &child{r: r, id: newChildID(), call: call, t: t, log: session.NewLog(r.opts.Agent.Now)}
	r.opts.Log.Append(session.SubagentStarted{ID: c.id, CallID: call.ID(), Type: t.Name, Description: args.Description})
	stop := c.log.Subscribe(func(ev session.Event) {
		r.opts.Log.Append(session.SubagentEvent{ID: c.id, CallID: call.ID(), Payload: ev.Payload})
		if m, ok := ev.Payload.(session.ContextMessage); ok {
			// What the child learned after its calls (diagnostics, say)
			// reaches the parent after the task's own result.
			call.DeferContext(m.Message)
		}
	})
	answer, reason, err := c.run(ctx, args, out)
	stop()
	end := session.SubagentEnded{ID: c.id, CallID: call.ID(), Reason: reason}
	if err != nil {
		end.Error = err.Error()
	}
	r.opts.Log.Append(end)
	return answer, err
}

// run builds the child's scope and agent, runs its turns and returns its
// answer, and why it ended.
func (c *child) run(ctx context.Context, args TaskArgs, out *schema.Schema) (string, session.StopReason, error) {
	r := c.r
	reg := r.opts.Pipeline.Registry()
	scope, err := newChildScope(reg, r.opts.Scope, c.id, c.t, r.opts.ParentOnly)
	if err != nil {
		return "", session.StopError, err
	}
	defer scope.Close()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer r.running.add(c.id, cancel)()
	stopTools, err := c.register(scope, out, cancel)
	if stopTools != nil {
		defer stopTools()
	}
	if err != nil {
		return "", session.StopError, err
	}
	if c.t.ReadOnly {
		defer r.opts.Pipeline.UsePreExecute(scope, readOnlyGuard(c.t.Name))()
	}
	defer r.opts.Pipeline.UsePreExecute(scope, r.opts.Policy(c.t))()
	ag, err := c.agent(scope)
	if err != nil {
		return "", session.StopError, err
	}
	reason, err := ag.Prompt(ctx, []presentation.ContentBlock{presentation.Text(args.Prompt)})
	for c.box != nil && err == nil && reason == session.StopEndTurn {
		prompt, again := c.box.missed()
		if !again {
			break
		}
		reason, err = ag.Prompt(ctx, []presentation.ContentBlock{presentation.Text(prompt)})
	}
	return c.outcome(ctx, reason, err)
}

// register gives the child's scope its own tools: those Options.Tools
// makes for it that its type admits (the scope's own tools pass no
// restriction, so the type's filter is applied to them here), the result tool when a structured result is asked for
// (whose last failed try cancels the child), and a task tool of its own
// when it may nest. stop, when not nil, stops what Options.Tools started
// for the child; the caller calls it once the child has ended, whatever
// err says.
func (c *child) register(scope *registry.Scope, out *schema.Schema, cancel context.CancelCauseFunc) (stop func(), err error) {
	r := c.r
	reg := r.opts.Pipeline.Registry()
	var tools []*registry.Tool
	if r.opts.Tools != nil {
		var own []*registry.Tool
		own, stop, err = r.opts.Tools(c.log, c.t)
		if err != nil {
			return stop, fmt.Errorf("subagent tools: %w", err)
		}
		for _, t := range own {
			if c.t.admits(t.Name()) {
				tools = append(tools, t)
			}
		}
	}
	if out != nil {
		c.box = &resultBox{schema: out, exhausted: cancel}
		t, err := c.box.tool()
		if err != nil {
			return stop, fmt.Errorf("result tool: %w", err)
		}
		tools = append(tools, t)
	}
	if r.mayNest(c.t) {
		t, err := r.nested(scope, c.log, c.t.ReadOnly).Tool()
		if err != nil {
			return stop, fmt.Errorf("nested task tool: %w", err)
		}
		tools = append(tools, t)
	}
	for _, t := range tools {
		if _, err := reg.Register(scope, t); err != nil {
			return stop, fmt.Errorf("register %s: %w", t.Name(), err)
		}
	}
	return stop, nil
}

// agent is the child's agent loop: the parent's model unless the type
// names another, its own scope, log, instructions and step budget, its
// calls nested in the task call.
func (c *child) agent(scope *registry.Scope) (*agent.Agent, error) {
	r := c.r
	opts := r.opts.Agent
	if c.t.Model != "" {
		if r.opts.Models == nil {
			return nil, fmt.Errorf("subagent type %s names model %q, and no other model is configured", c.t.Name, c.t.Model)
		}
		provider, info, err := r.opts.Models(c.t.Model)
		if err != nil {
			return nil, fmt.Errorf("subagent type %s: model %q: %w", c.t.Name, c.t.Model, err)
		}
		opts.Provider, opts.Model = provider, info
	}
	opts.Pipeline, opts.Scope, opts.Log, opts.Parent = r.opts.Pipeline, scope, c.log, c.call
	opts.ClientPrompt = agent.ClientPrompt{Text: c.t.Instructions, Override: true}
	opts.MaxRequestsPerTurn = r.opts.MaxSteps
	return agent.New(opts)
}

// outcome is the task's result from how the child's last turn ended: its
// answer (or structured value) when it finished, an error saying why it
// did not otherwise. A cancelled parent is ctx's error.
func (c *child) outcome(ctx context.Context, reason session.StopReason, err error) (string, session.StopReason, error) {
	if cause := context.Cause(ctx); ctx.Err() != nil {
		switch {
		case errors.Is(cause, ErrCancelled):
			return "", session.StopCancelled, fmt.Errorf("%w%s", ErrCancelled, lastWords(c.lastText()))
		case !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded):
			return "", session.StopError, cause // the result tool's last try failed
		}
		return "", session.StopCancelled, ctx.Err()
	}
	last := c.lastText()
	switch {
	case err != nil:
		return "", session.StopError, fmt.Errorf("the subagent failed: %w", err)
	case reason == session.StopMaxTurnRequests:
		return "", reason, fmt.Errorf("the subagent used its %d model requests without finishing%s", c.r.opts.MaxSteps, lastWords(last))
	case reason != session.StopEndTurn:
		return "", reason, fmt.Errorf("the subagent stopped (%s) without finishing%s", reason, lastWords(last))
	}
	if c.box != nil {
		v, ok := c.box.result()
		if !ok {
			return "", session.StopError, c.box.failure()
		}
		return v.Canonical(), reason, nil
	}
	if last == "" {
		return "(The subagent finished without an answer.)", reason, nil
	}
	return last, reason, nil
}

// lastText is the text of the child's last message that had any.
func (c *child) lastText() string {
	events := c.log.Events()
	for i := len(events) - 1; i >= 0; i-- {
		if m, ok := events[i].Payload.(session.AssistantMessage); ok && m.Text != "" {
			return m.Text
		}
	}
	return ""
}

// lastWords quotes what a child that did not finish said last.
func lastWords(text string) string {
	if text == "" {
		return ""
	}
	return "; it said last: " + text
}

// newChildID returns a new child's id, unique in its session (and in the
// sessions stored beside it).
func newChildID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "sub_" + hex.EncodeToString(b[:])
}
