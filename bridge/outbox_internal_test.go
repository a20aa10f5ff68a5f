package bridge

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

type recorder struct {
	mu    sync.Mutex
	lines []string
	delay time.Duration
}

func (r *recorder) Notify(_ context.Context, method string, params any) error {
	time.Sleep(r.delay)
	data, err := json.Marshal(params)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, string(data))
	return nil
}

func (r *recorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

func delta(id, data string) toolCallUpdate {
	return toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: id, Meta: &toolUpdateMeta{TerminalOutput: &terminalOutput{TerminalID: id, Data: data}}}
}

func final(id, data string) toolCallUpdate {
	zero := 0
	return toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: id, Status: "completed",
		Meta: &toolUpdateMeta{TerminalOutput: &terminalOutput{TerminalID: id, Data: data}, TerminalExit: &terminalExit{TerminalID: id, ExitCode: &zero}}}
}

func snapshot(id, text string) toolCallUpdate {
	return toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: id, Content: []any{textItem(text)}}
}

func TestCoalesce(t *testing.T) {
	chunk := chunkUpdate{SessionUpdate: "agent_message_chunk", Content: text("x")}
	tests := []struct {
		name     string
		batch    []any
		want     []string
		wantLive bool
	}{
		{
			name:     "deltas of a call merge; other calls keep their own",
			batch:    []any{delta("a", "1"), delta("b", "x"), delta("a", "2"), chunk, delta("a", "3")},
			want:     []string{`"a" 123`, `"b" x`, "chunk"},
			wantLive: true,
		},
		{
			name:  "pending output rides on the final update",
			batch: []any{delta("a", "1"), delta("a", "2"), final("a", "")},
			want:  []string{`"a" final 12`},
		},
		{
			name:  "a status change closes the open delta",
			batch: []any{delta("a", "1"), toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: "a", Status: "in_progress"}, delta("a", "2")},
			want:  []string{`"a" 1`, `"a" status in_progress`, `"a" 2`},
		},
		{
			name:  "only the latest whole-output snapshot is sent",
			batch: []any{snapshot("a", "1"), snapshot("a", "12"), snapshot("b", "x")},
			want:  []string{`"a" content 12`, `"b" content x`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, live := coalesce(tt.batch)
			var got []string
			for _, u := range out {
				got = append(got, describe(u))
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("coalesce = %q, want %q", got, tt.want)
			}
			if tt.wantLive && !live {
				t.Errorf("live = false")
			}
		})
	}
}

func describe(u any) string {
	switch u := u.(type) {
	case chunkUpdate:
		return "chunk"
	case toolCallUpdate:
		switch {
		case isFinalOutput(u):
			return `"` + u.ToolCallID + `" final ` + u.Meta.TerminalOutput.Data
		case isOutputDelta(u):
			return `"` + u.ToolCallID + `" ` + u.Meta.TerminalOutput.Data
		case isOutputSnapshot(u):
			return `"` + u.ToolCallID + `" content ` + u.Content[0].(contentItem).Content.Text
		default:
			return `"` + u.ToolCallID + `" status ` + u.Status
		}
	}
	return "?"
}

func TestOutboxKeepsOrderAndFlushes(t *testing.T) {
	rec := &recorder{delay: time.Millisecond}
	o := newOutbox("s1", rec, slog.New(slog.DiscardHandler))
	defer o.close()
	for i := range 50 {
		o.push(delta("a", string(rune('a'+i%26))))
	}
	o.push(final("a", ""))
	if err := o.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := rec.all()
	if len(lines) == 0 || len(lines) > 51 {
		t.Fatalf("sent %d updates", len(lines))
	}
	var data strings.Builder
	for _, l := range lines {
		var n struct {
			SessionID string `json:"sessionId"`
			Update    struct {
				Status string `json:"status"`
				Meta   struct {
					Out struct {
						Data string `json:"data"`
					} `json:"terminal_output"`
				} `json:"_meta"`
			} `json:"update"`
		}
		if err := json.Unmarshal([]byte(l), &n); err != nil || n.SessionID != "s1" {
			t.Fatalf("bad notification %s", l)
		}
		data.WriteString(n.Update.Meta.Out.Data)
	}
	want := ""
	for i := range 50 {
		want += string(rune('a' + i%26))
	}
	if data.String() != want {
		t.Errorf("output = %q, want %q", data.String(), want)
	}
	if !strings.Contains(lines[len(lines)-1], `"status":"completed"`) {
		t.Errorf("the final update is not last: %s", lines[len(lines)-1])
	}
}

func TestOutboxRateLimitsLiveOutput(t *testing.T) {
	rec := &recorder{}
	o := newOutbox("s1", rec, slog.New(slog.DiscardHandler))
	deadline := time.Now().Add(500 * time.Millisecond)
	for time.Now().Before(deadline) {
		o.push(delta("a", "x"))
		time.Sleep(time.Millisecond)
	}
	o.close()
	// 500 ms at one burst per 50 ms: about 10, allow generous slack.
	if n := len(rec.all()); n > 20 {
		t.Errorf("sent %d live updates in 500ms, want at most ~10", n)
	}
}
