package llm

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// openaiSource runs the attempts of one streamed completion and turns
// chunks into events.
type openaiSource struct {
	p      *OpenAI
	params openai.ChatCompletionNewParams
	stream *ssestream.Stream[openai.ChatCompletionChunk]

	attempt  int           // attempts started so far
	wait     time.Duration // wait before the next attempt
	waiting  bool          // a retry is due
	produced bool          // the current attempt delivered an event
	queue    []Event
	indexer  toolIndexer
}

func (s *openaiSource) next(ctx context.Context) (Event, error) {
	policy := s.p.cfg.Retry
	for {
		if len(s.queue) > 0 {
			ev := s.queue[0]
			s.queue = s.queue[1:]
			s.produced = true
			return ev, nil
		}
		if s.stream == nil {
			if s.waiting {
				s.waiting = false
				if err := policy.Sleep(ctx, s.wait); err != nil {
					return nil, err
				}
			}
			s.attempt++
			s.produced = false
			s.indexer = toolIndexer{}
			s.stream = s.p.svc.NewStreaming(ctx, s.params)
		}
		if s.stream.Next() {
			s.queue = s.translate(s.stream.Current())
			continue
		}
		err := s.stream.Err()
		_ = s.stream.Close()
		s.stream = nil
		if err == nil {
			return nil, io.EOF
		}
		if ctx.Err() != nil {
			return nil, s.p.red.Error(err)
		}
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
}

func (s *openaiSource) close() error {
	if s.stream == nil {
		return nil
	}
	err := s.stream.Close()
	s.stream = nil
	return err
}

// translate turns one chunk into events: reasoning, text, tool-call
// fragments and the finish reason of choice 0, then usage.
func (s *openaiSource) translate(c openai.ChatCompletionChunk) []Event {
	var evs []Event
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		d := ch.Delta
		if r := reasoningText(d); r != "" {
			evs = append(evs, ReasoningDelta{Text: r})
		}
		if d.Content != "" {
			evs = append(evs, TextDelta{Text: d.Content})
		}
		for _, tc := range d.ToolCalls {
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
	if c.JSON.Usage.Valid() {
		evs = append(evs, UsageReport{Usage: usageOf(c.Usage)})
	}
	return evs
}

// reasoningText reads DeepSeek's reasoning_content, or the reasoning field
// some other servers use, from the raw delta.
func reasoningText(d openai.ChatCompletionChunkChoiceDelta) string {
	for _, key := range []string{"reasoning_content", "reasoning"} {
		// Extra fields are never Valid() in openai-go (they have no Go
		// type to decode into); their raw JSON is what counts.
		var text string
		if json.Unmarshal([]byte(d.JSON.ExtraFields[key].Raw()), &text) == nil && text != "" {
			return text
		}
	}
	return ""
}

func usageOf(u openai.CompletionUsage) Usage {
	out := Usage{
		PromptTokens:     u.PromptTokens,
		CompletionTokens: u.CompletionTokens,
		TotalTokens:      u.TotalTokens,
	}
	if u.PromptTokensDetails.JSON.CachedTokens.Valid() {
		out.CachedPromptTokens = u.PromptTokensDetails.CachedTokens
	} else if raw := u.JSON.ExtraFields["prompt_cache_hit_tokens"].Raw(); raw != "" {
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
			out.CachedPromptTokens = n
		}
	}
	return out
}

// toolIndexer assigns tool-call fragments their index. Servers send an
// explicit index; for the few that omit it, a new id starts a new call and a
// fragment without id continues the last one.
type toolIndexer struct {
	last, count int
	byID        map[string]int
}

func (t *toolIndexer) index(tc openai.ChatCompletionChunkChoiceDeltaToolCall) int {
	idx := t.last
	switch {
	case tc.JSON.Index.Valid():
		idx = int(tc.Index)
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
