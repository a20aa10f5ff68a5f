package bridge

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/session"
)

func msg(s string) acp.Update     { return acp.AgentMessageChunk{Content: acp.Text(s)} }
func thought(s string) acp.Update { return acp.AgentThoughtChunk{Content: acp.Text(s)} }

// show is a compact description of an update, for comparisons.
func show(u acp.Update) string {
	switch u := u.(type) {
	case acp.AgentMessageChunk:
		return "msg:" + u.Content.(acp.TextContent).Text
	case acp.AgentThoughtChunk:
		return "thought:" + u.Content.(acp.TextContent).Text
	case acp.UserMessageChunk:
		if t, ok := u.Content.(acp.TextContent); ok {
			return "user:" + t.Text
		}
		return "user:?"
	case acp.ToolCall:
		return "call:" + u.ToolCallID
	}
	return fmt.Sprintf("%T", u)
}

func TestMergeTextChunks(t *testing.T) {
	annotated := acp.AgentMessageChunk{Content: acp.TextContent{Text: "!", Annotations: &acp.Annotations{Audience: []acp.Role{acp.RoleUser}}}}
	tests := []struct {
		name  string
		batch []acp.Update
		want  []string
	}{
		{"one chunk is left alone", []acp.Update{msg("a")}, []string{"msg:a"}},
		{"a run of message chunks is one chunk", []acp.Update{msg("a "), msg("b "), msg("c")}, []string{"msg:a b c"}},
		{"kinds do not mix", []acp.Update{thought("x"), thought("y"), msg("a"), msg("b"), thought("z")},
			[]string{"thought:xy", "msg:ab", "thought:z"}},
		{"another update ends a run, order kept", []acp.Update{msg("a"), acp.ToolCall{ToolCallID: "c1"}, msg("b"), msg("c")},
			[]string{"msg:a", "call:c1", "msg:bc"}},
		{"chunks with annotations are not merged", []acp.Update{msg("a"), annotated, msg("b")}, []string{"msg:a", "msg:!", "msg:b"}},
		{"user chunks merge too", []acp.Update{acp.UserMessageChunk{Content: acp.Text("h")}, acp.UserMessageChunk{Content: acp.Text("i")}}, []string{"user:hi"}},
		{"non-text chunks are not merged", []acp.Update{acp.UserMessageChunk{Content: acp.ImageContent{}}, acp.UserMessageChunk{Content: acp.ImageContent{}}},
			[]string{"user:?", "user:?"}},
		{"different messages are not merged", []acp.Update{acp.AgentMessageChunk{Content: acp.Text("a"), MessageID: "m1"}, acp.AgentMessageChunk{Content: acp.Text("b"), MessageID: "m2"}},
			[]string{"msg:a", "msg:b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, u := range mergeTextChunks(tt.batch) {
				got = append(got, show(u))
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("mergeTextChunks = %q, want %q", got, tt.want)
			}
		})
	}
}

// gatedRecorder records notifications and holds the outbox inside its
// first send until released, as a client that is slow to read does.
type gatedRecorder struct {
	mu      sync.Mutex
	updates []acp.Update
	first   chan struct{} // closed once the first notification is in
	release chan struct{}
}

func (r *gatedRecorder) SessionUpdate(_ context.Context, _ string, u acp.Update) error {
	r.mu.Lock()
	r.updates = append(r.updates, u)
	n := len(r.updates)
	r.mu.Unlock()
	if n == 1 {
		close(r.first)
		<-r.release
	}
	return nil
}

// The first chunk of a burst goes out at once, alone; the 1,999 deltas
// that queue up while it is being written go out as one notification
// holding their text in order.
func TestOutboxMergesQueuedChunksWithoutDelayingTheFirst(t *testing.T) {
	rec := &gatedRecorder{first: make(chan struct{}), release: make(chan struct{})}
	o := newOutbox("s1", rec, slog.New(slog.DiscardHandler))
	defer o.close()

	o.push(msg("d0 "))
	select {
	case <-rec.first: // sent while nothing else was pushed: never held back to merge
	case <-testContext(t).Done():
		t.Fatal("the first chunk was not sent within a minute")
	}
	var want strings.Builder
	for i := 1; i < 2000; i++ {
		d := fmt.Sprintf("d%d ", i)
		want.WriteString(d)
		o.push(msg(d))
	}
	close(rec.release)
	if err := o.flush(testContext(t)); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.updates) != 2 || show(rec.updates[0]) != "msg:d0 " || show(rec.updates[1]) != "msg:"+want.String() {
		t.Errorf("sent %d notifications (%.40q…), want the first delta, then the other 1,999 as one", len(rec.updates), show(rec.updates[0]))
	}
}

// countingClient encodes each notification, as the connection does, and
// counts them.
type countingClient struct {
	mu sync.Mutex
	n  int
}

func (c *countingClient) SessionUpdate(_ context.Context, sessionID string, u acp.Update) error {
	if _, err := (acp.SessionNotification{SessionID: sessionID, Update: u}).MarshalJSON(); err != nil {
		return err
	}
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return nil
}

// BenchmarkOutboxBurst reports how many session/update notifications a
// burst of 2,000 streamed deltas becomes (notifications/burst), mapping
// each delta as the session does and encoding each notification. How many
// merge depends on the scheduler; without merging it is 2,000.
func BenchmarkOutboxBurst(b *testing.B) {
	const deltas = 2000
	total := 0
	for b.Loop() {
		client := &countingClient{}
		o := newOutbox("0b6c1e4e-3c1f-4a8e-9d3b-2f6f1f0a9c11", client, slog.New(slog.DiscardHandler))
		m := NewMapper(MapperOptions{})
		for i := range deltas {
			o.push(m.Map(session.Event{Payload: session.AssistantChunk{Text: fmt.Sprintf("word%d ", i)}})...)
		}
		if err := o.flush(context.Background()); err != nil {
			b.Fatal(err)
		}
		o.close()
		total += client.n
	}
	b.ReportMetric(float64(total)/float64(b.N), "notifications/burst")
}
