package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// openaiSource runs the attempts of one streamed completion and turns
// chunks into events. The SDK sends the request and frames the server-sent
// events; each event's data is decoded here into a chunkWire.
type openaiSource struct {
	p      *OpenAI
	params openai.ChatCompletionNewParams
	dec    ssestream.Decoder // the current attempt's events; nil between attempts

	attempt  int           // attempts started so far
	wait     time.Duration // wait before the next attempt
	waiting  bool          // a retry is due
	produced bool          // the current attempt delivered an event
	indexer  toolIndexer

	chunks chunkDecoder
	queue  []Event // events of the last chunk; queue[head:] not yet returned
	head   int
}

func (s *openaiSource) next(ctx context.Context) (Event, error) {
	for {
		if s.head < len(s.queue) {
			ev := s.queue[s.head]
			s.queue[s.head] = nil
			s.head++
			s.produced = true
			return ev, nil
		}
		if s.dec == nil {
			if s.waiting {
				s.waiting = false
				if err := s.p.cfg.Retry.Sleep(ctx, s.wait); err != nil {
					return nil, err
				}
			}
			s.attempt++
			s.produced = false
			s.indexer = toolIndexer{}
			s.chunks.restart()
			dec, err := s.p.post(ctx, s.params)
			if err != nil {
				return s.failed(ctx, err)
			}
			s.dec = dec
		}
		more, err := s.advance()
		if more {
			continue
		}
		_ = s.dec.Close()
		s.dec = nil
		if err == nil {
			return nil, io.EOF
		}
		return s.failed(ctx, err)
	}
}

// post sends the streamed chat request and returns the response's events.
// A status of 400 or more is the SDK's *openai.Error.
func (p *OpenAI) post(ctx context.Context, params openai.ChatCompletionNewParams) (ssestream.Decoder, error) {
	var res *http.Response
	err := p.client.Post(ctx, "chat/completions", params, &res, option.WithJSONSet("stream", true))
	if err != nil {
		if res != nil && res.Body != nil {
			_ = res.Body.Close()
		}
		return nil, err
	}
	dec := ssestream.NewDecoder(res)
	if dec == nil {
		return nil, errors.New("the model server answered without a body")
	}
	return dec, nil
}

// advance reads the next event of the attempt into the queue. It returns
// false at the end of the attempt: with a nil error after [DONE] or a clean
// end of the body, else with the reason.
func (s *openaiSource) advance() (bool, error) {
	if !s.dec.Next() {
		return false, s.dec.Err()
	}
	ev := s.dec.Event()
	if bytes.HasPrefix(ev.Data, doneMarker) {
		return false, nil
	}
	if !s.chunks.decode(ev.Data) {
		return true, nil
	}
	if e := s.chunks.chunk.Error; len(e) > 0 && !bytes.Equal(e, jsonNull) {
		return false, &ssestream.StreamError{Message: "received error while streaming: " + errorText(e), Event: ev}
	}
	s.queue, s.head = s.translate(s.queue[:0], &s.chunks.chunk), 0
	return true, nil
}

var (
	doneMarker = []byte("[DONE]")
	jsonNull   = []byte("null")
)

// errorText is the text of an error field: a string's value, an object's
// or anything else's JSON.
func errorText(raw json.RawMessage) string {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return text
	}
	return string(raw)
}

// failed turns the failure of an attempt into a retry notice, when the
// policy allows one, or the stream's error.
func (s *openaiSource) failed(ctx context.Context, err error) (Event, error) {
	if ctx.Err() != nil {
		return nil, s.p.red.Error(err)
	}
	policy := s.p.cfg.Retry
	if !s.produced {
		if d := policy.decide(err, s.attempt); d.retry {
			s.waiting, s.wait = true, d.wait
			return RetryNotice{
				Attempt:     s.attempt + 1,
				MaxAttempts: policy.MaxAttempts,
				Wait:        d.wait,
				Reason:      d.reason,
				Err:         s.p.red.Error(s.p.describe(err, s.attempt)),
			}, nil
		}
	}
	return nil, s.p.fail(ctx, err, s.attempt)
}

func (s *openaiSource) close() error {
	if s.dec == nil {
		return nil
	}
	err := s.dec.Close()
	s.dec = nil
	return err
}

// translate appends the events of chunk c to evs: reasoning, text,
// tool-call fragments and the finish reason of choice 0, then usage.
func (s *openaiSource) translate(evs []Event, c *chunkWire) []Event {
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue
		}
		d := &ch.Delta
		if r := d.reasoning(); r != "" {
			evs = append(evs, ReasoningDelta{Text: r})
		}
		if d.Content != "" {
			evs = append(evs, TextDelta{Text: d.Content})
		}
		for j := range d.ToolCalls {
			tc := &d.ToolCalls[j]
			evs = append(evs, ToolCallDelta{
				Index:     s.indexer.index(tc),
				ID:        tc.ID,
				Name:      tc.Function.Name,
				Arguments: tc.Function.Arguments,
			})
		}
		if ch.FinishReason != "" {
			evs = append(evs, Finish{Reason: normalizeFinishReason(ch.FinishReason), Raw: ch.FinishReason})
		}
	}
	if c.Usage != nil {
		evs = append(evs, UsageReport{Usage: c.Usage.usage()})
	}
	return evs
}

// toolIndexer assigns tool-call fragments their index. Servers send an
// explicit index; for the few that omit it, a new id starts a new call and a
// fragment without id continues the last one.
type toolIndexer struct {
	last, count int
	byID        map[string]int
}

func (t *toolIndexer) index(tc *toolCallWire) int {
	idx := t.last
	switch {
	case tc.Index != nil:
		idx = *tc.Index
	case tc.ID != "":
		if known, ok := t.byID[tc.ID]; ok {
			idx = known
		} else {
			idx = t.count
		}
	}
	if tc.ID != "" {
		if t.byID == nil {
			t.byID = make(map[string]int)
		}
		t.byID[tc.ID] = idx
	}
	t.last, t.count = idx, max(t.count, idx+1)
	return idx
}
