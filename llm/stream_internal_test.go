package llm

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// collectEvents runs events through a Stream and returns what the caller
// sees and the response.
func collectEvents(t *testing.T, events ...Event) ([]Event, Response, error) {
	t.Helper()
	s := newStream(t.Context(), &eventList{events: events})
	var got []Event
	resp, err := Collect(s, func(ev Event) error { got = append(got, ev); return nil })
	return got, resp, err
}

func TestStreamAssemblesToolCalls(t *testing.T) {
	tests := []struct {
		name   string
		events []Event
		calls  []ToolCall
		finish FinishReason
	}{
		{
			name: "interleaved fragments, out-of-order first appearance",
			events: []Event{
				ToolCallDelta{Index: 1, ID: "b", Name: "glob", Arguments: `{"p`},
				ToolCallDelta{Index: 0, ID: "a", Name: "read"},
				ToolCallDelta{Index: 1, Arguments: `":1}`},
				ToolCallDelta{Index: 0, Arguments: `{}`},
				Finish{Reason: FinishToolCalls},
			},
			calls:  []ToolCall{{ID: "a", Name: "read", Arguments: "{}"}, {ID: "b", Name: "glob", Arguments: `{"p":1}`}},
			finish: FinishToolCalls,
		},
		{
			name: "repeated name kept once, split name joined, missing id generated",
			events: []Event{
				ToolCallDelta{Index: 0, Name: "to"},
				ToolCallDelta{Index: 0, Name: "do_write", Arguments: "{"},
				ToolCallDelta{Index: 1, ID: "x", Name: "bash", Arguments: "{"},
				ToolCallDelta{Index: 1, ID: "x", Name: "bash", Arguments: "}"},
				ToolCallDelta{Index: 0, Arguments: "}"},
				Finish{Reason: FinishStop},
			},
			calls: []ToolCall{
				{ID: "call_0", Name: "todo_write", Arguments: "{}"},
				{ID: "x", Name: "bash", Arguments: "{}"},
			},
			// "stop" with tool calls is corrected to tool_calls.
			finish: FinishToolCalls,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, resp, err := collectEvents(t, tt.events...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(resp.Message.ToolCalls, tt.calls) || resp.FinishReason != tt.finish {
				t.Errorf("calls %+v finish %q; want %+v %q", resp.Message.ToolCalls, resp.FinishReason, tt.calls, tt.finish)
			}
			var done []ToolCall
			for _, ev := range got {
				if d, ok := ev.(ToolCallDone); ok {
					done = append(done, d.Call)
				}
			}
			if !reflect.DeepEqual(done, tt.calls) {
				t.Errorf("ToolCallDone calls = %+v", done)
			}
			if f, ok := got[len(got)-1].(Finish); !ok || f.Reason != tt.finish {
				t.Errorf("last event = %#v", got[len(got)-1])
			}
		})
	}
}

func TestStreamEndsWithoutFinish(t *testing.T) {
	_, resp, err := collectEvents(t, TextDelta{Text: "cut"})
	if !errors.Is(err, ErrIncompleteStream) {
		t.Errorf("err = %v", err)
	}
	if resp.Message.Content != "cut" {
		t.Errorf("partial content lost: %+v", resp)
	}
}

func TestCollectCallbackAborts(t *testing.T) {
	stop := errors.New("stop")
	l := &eventList{events: []Event{TextDelta{Text: "a"}, TextDelta{Text: "b"}, Finish{Reason: FinishStop}}}
	s := newStream(context.Background(), l)
	n := 0
	_, err := Collect(s, func(Event) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("err %v after %d events", err, n)
	}
	if s.Next() {
		t.Error("stream still open after Collect")
	}
}
