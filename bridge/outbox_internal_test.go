package bridge

import (
	"context"
	"encoding/json"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/acp"
)

type recorder struct {
	mu    sync.Mutex
	lines []string
	delay time.Duration
	sent  chan struct{} // when set, gets a token per notification
}

func (r *recorder) SessionUpdate(_ context.Context, sessionID string, u acp.Update) error {
	time.Sleep(r.delay)
	data, err := acp.SessionNotification{SessionID: sessionID, Update: u}.MarshalJSON()
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.lines = append(r.lines, string(data))
	r.mu.Unlock()
	if r.sent != nil {
		r.sent <- struct{}{}
	}
	return nil
}

// waitSent waits until n more notifications have been sent.
func (r *recorder) waitSent(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-r.sent:
		case <-time.After(time.Minute):
			t.Fatalf("no notification after a minute; sent %q", r.all())
		}
	}
}

func (r *recorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

func delta(id, data string) acp.ToolCallUpdate {
	return acp.ToolCallUpdate{ToolCallID: id, Meta: &acp.ToolCallUpdateMeta{TerminalOutput: &acp.TerminalOutput{TerminalID: id, Data: data}}}
}

func final(id, data string) acp.ToolCallUpdate {
	zero := 0
	return acp.ToolCallUpdate{ToolCallID: id, Status: acp.ToolCallStatusCompleted,
		Meta: &acp.ToolCallUpdateMeta{TerminalOutput: &acp.TerminalOutput{TerminalID: id, Data: data}, TerminalExit: &acp.TerminalExit{TerminalID: id, ExitCode: &zero}}}
}

func snapshot(id, text string) acp.ToolCallUpdate {
	return acp.ToolCallUpdate{ToolCallID: id, Content: []acp.ToolCallContent{textItem(text)}}
}

func TestCoalesce(t *testing.T) {
	chunk := acp.AgentMessageChunk{Content: acp.Text("x")}
	tests := []struct {
		name     string
		batch    []acp.Update
		want     []string
		wantLive bool
	}{
		{
			name:     "deltas of a call merge; other calls keep their own",
			batch:    []acp.Update{delta("a", "1"), delta("b", "x"), delta("a", "2"), chunk, delta("a", "3")},
			want:     []string{`"a" 123`, `"b" x`, "chunk"},
			wantLive: true,
		},
		{
			name:  "pending output rides on the final update",
			batch: []acp.Update{delta("a", "1"), delta("a", "2"), final("a", "")},
			want:  []string{`"a" final 12`},
		},
		{
			name:  "a status change closes the open delta",
			batch: []acp.Update{delta("a", "1"), acp.ToolCallUpdate{ToolCallID: "a", Status: acp.ToolCallStatusInProgress}, delta("a", "2")},
			want:  []string{`"a" 1`, `"a" status in_progress`, `"a" 2`},
		},
		{
			name:  "only the latest whole-output snapshot is sent",
			batch: []acp.Update{snapshot("a", "1"), snapshot("a", "12"), snapshot("b", "x")},
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

func describe(u acp.Update) string {
	switch u := u.(type) {
	case acp.AgentMessageChunk:
		return "chunk"
	case acp.ToolCallUpdate:
		switch {
		case isFinalOutput(u):
			return `"` + u.ToolCallID + `" final ` + u.Meta.TerminalOutput.Data
		case isOutputDelta(u):
			return `"` + u.ToolCallID + `" ` + u.Meta.TerminalOutput.Data
		case isOutputSnapshot(u):
			return `"` + u.ToolCallID + `" content ` + u.Content[0].(acp.ContentItem).Content.(acp.TextContent).Text
		default:
			return `"` + u.ToolCallID + `" status ` + string(u.Status)
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

// After a burst of live output the outbox waits its interval before the
// next burst, unless a flush hurries it: whatever is pushed meanwhile goes
// out as one merged update. The interval here is an hour, so the test does
// not depend on how fast the machine is: nothing but the flush can end the
// wait.
func TestOutboxRateLimitsLiveOutput(t *testing.T) {
	rec := &recorder{sent: make(chan struct{}, 64)}
	o := newOutbox("s1", rec, slog.New(slog.DiscardHandler))
	defer o.close()
	// The outbox's goroutine reads interval only after a push has woken
	// it, and push's wake-up orders this write before that read.
	o.interval = time.Hour

	o.push(delta("a", "0"))
	rec.waitSent(t, 1) // the first burst; the hour's wait starts
	for i := 1; i <= 9; i++ {
		o.push(delta("a", strconv.Itoa(i)))
		// An outbox that did not wait would send now: give it the chance.
		// (A waiting one passes whatever the scheduler does.)
		runtime.Gosched()
	}
	if n := len(rec.all()); n != 1 {
		t.Errorf("%d updates sent while the outbox waits, want only the first burst's", n)
	}
	if err := o.flush(testContext(t)); err != nil {
		t.Fatal(err)
	}
	got := rec.all()
	if len(got) != 2 || !strings.Contains(got[0], `"data":"0"`) || !strings.Contains(got[1], `"data":"123456789"`) {
		t.Errorf("sent %q, want the first burst, then the rest merged into one update", got)
	}
}

// A call's end (or any update that is not live output) pushed while the
// outbox waits out its interval goes out at once, with the output queued
// before it merged in: the editor sees a command end when it ended, not up
// to an interval later. The interval is an hour: only the hurry can end it.
func TestOutboxSendsACallsEndWithoutWaiting(t *testing.T) {
	tests := []struct {
		name string
		last acp.Update
		want []string
	}{
		{"the call's final update", final("a", "!"), []string{`"data":"0"`, `"data":"12!"`}},
		{"the answer's text", acp.AgentMessageChunk{Content: acp.Text("done")}, []string{`"data":"0"`, `"data":"12"`, `"text":"done"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{sent: make(chan struct{}, 64)}
			o := newOutbox("s1", rec, slog.New(slog.DiscardHandler))
			defer o.close()
			o.interval = time.Hour

			o.push(delta("a", "0"))
			rec.waitSent(t, 1)
			o.push(delta("a", "1"))
			o.push(delta("a", "2"))
			o.push(tt.last)
			rec.waitSent(t, len(tt.want)-1)
			got := rec.all()
			if len(got) != len(tt.want) {
				t.Fatalf("sent %q, want %d updates", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("update %d = %s, want it to hold %s", i, got[i], w)
				}
			}
		})
	}
}

// testContext ends with the test, or after a minute (a hang guard).
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}
