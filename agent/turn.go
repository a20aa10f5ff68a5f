package agent

import (
	"context"
	"errors"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/session"
)

// turn is one prompt's run.
type turn struct {
	agent    *Agent
	log      *session.Log
	requests int
	steering Steering // nil: the user sends nothing during the turn
}

// run loops model steps and tool batches until the turn ends.
func (t *turn) run(ctx context.Context) (session.StopReason, error) {
	for {
		if ctx.Err() != nil {
			return session.StopCancelled, nil
		}
		if t.requests >= t.agent.opts.MaxRequestsPerTurn {
			return session.StopMaxTurnRequests, nil
		}
		if t.requests > 0 {
			t.steer(false)
		}
		t.requests++
		resp, err := t.step(ctx)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, context.Canceled) {
				return session.StopCancelled, nil
			}
			return session.StopError, err
		}
		calls := toolCalls(resp.Message.ToolCalls, t.log.Turn(), t.requests)
		runs := len(calls) > 0 && resp.FinishReason != llm.FinishLength && resp.FinishReason != llm.FinishContentFilter
		msg := session.AssistantMessage{Text: resp.Message.Content, Reasoning: resp.Message.Reasoning}
		if runs {
			msg.ToolCalls = calls
		}
		t.log.Append(msg)
		switch {
		case resp.FinishReason == llm.FinishLength:
			return session.StopMaxTokens, nil
		case resp.FinishReason == llm.FinishContentFilter:
			return session.StopRefusal, nil
		case !runs && t.steer(true):
			continue // the user said more while the model answered
		case !runs:
			return session.StopEndTurn, nil
		}
		if concluded := t.runBatch(ctx, calls); concluded && ctx.Err() == nil {
			return session.StopEndTurn, nil
		}
	}
}

// step streams one model request into the log and returns the response.
// The request goes to the model Options.Model names now; when it would not
// fit that model's context window, the oldest turns are compacted first.
func (t *turn) step(ctx context.Context) (llm.Response, error) {
	m := t.agent.model()
	tools := t.tools()
	system := systemPrompt(t.agent.opts, tools)
	if err := t.fit(ctx, m, system, tools); err != nil {
		return llm.Response{}, err
	}
	req := llm.Request{
		System:    system,
		Messages:  requestHistory(t.events(), m),
		Tools:     tools,
		MaxTokens: t.agent.opts.MaxTokens,
	}
	stream, err := t.agent.opts.Provider.Stream(ctx, req)
	if err != nil {
		return llm.Response{}, err
	}
	return llm.Collect(stream, func(ev llm.Event) error {
		if p := stepEvent(ev, m); p != nil {
			t.log.Append(p)
		}
		return nil
	})
}

// events are the log's events the model's conversation is made of:
// those no /rewind took back (session.WithoutRewound).
func (t *turn) events() []session.Event {
	return session.WithoutRewound(t.log.Events(), nil)
}

// tools returns the schemas of the tools the agent's scope sees.
func (t *turn) tools() []llm.Tool {
	schemas := t.agent.opts.Pipeline.Registry().Schemas(t.agent.opts.Scope)
	out := make([]llm.Tool, len(schemas))
	for i, s := range schemas {
		out[i] = llm.Tool{Name: s.Name, Description: s.Description, Parameters: s.Parameters}
	}
	return out
}

// stepEvent maps a stream event of a request to m to the payload the log
// records, or nil.
func stepEvent(ev llm.Event, m ModelInfo) session.Payload {
	switch ev := ev.(type) {
	case llm.TextDelta:
		return session.AssistantChunk{Text: ev.Text}
	case llm.ReasoningDelta:
		return session.AssistantChunk{Text: ev.Text, Reasoning: true}
	case llm.RetryNotice:
		return session.ModelRetry{Attempt: ev.Attempt, MaxAttempts: ev.MaxAttempts, Wait: ev.Wait, Reason: ev.Reason}
	case llm.UsageReport:
		return m.usage(ev.Usage)
	default:
		return nil
	}
}
