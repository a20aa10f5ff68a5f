package acp

import (
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// TestResponseID pins what the shutdown drain relies on: jsonrpc2 encodes
// every response, and only a response, with responsePrefix, and its id
// reads back.
func TestResponseID(t *testing.T) {
	tests := []struct {
		name   string
		msg    jsonrpc2.Message
		wantOK bool
		wantID jsonrpc2.ID
	}{
		{"result, number id", jsonrpc2.NewResponse(jsonrpc2.NewNumberID(7), []byte(`{"stopReason":"cancelled"}`), nil), true, jsonrpc2.NewNumberID(7)},
		{"error, string id", jsonrpc2.NewResponse(jsonrpc2.NewStringID("a\"b"), nil, RequestCancelled()), true, jsonrpc2.NewStringID("a\"b")},
		{"null id", jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, InternalError("x")), true, jsonrpc2.ID{}},
		{"call", jsonrpc2.NewCall(jsonrpc2.NewNumberID(7), "fs/read_text_file", []byte(`{}`)), false, jsonrpc2.ID{}},
		{"notification", jsonrpc2.NewNotification("session/update", []byte(`{"id":7}`)), false, jsonrpc2.ID{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frame := jsonrpc2.AppendMessage(nil, tt.msg)
			id, ok := responseID(frame)
			if ok != tt.wantOK || id != tt.wantID {
				t.Errorf("responseID(%s) = %v, %v; want %v, %v", frame, id, ok, tt.wantID, tt.wantOK)
			}
		})
	}
}

// TestRepliesDrained checks the count of owed answers: per id (a refused
// duplicate owes a second answer), unowed ids ignored, drained closed
// exactly while nothing is owed.
func TestRepliesDrained(t *testing.T) {
	r := newReplies()
	isDrained := func() bool {
		select {
		case <-r.drained():
			return true
		default:
			return false
		}
	}
	one, two := jsonrpc2.NewNumberID(1), jsonrpc2.NewStringID("2")
	steps := []struct {
		do          func()
		wantOwed    int
		wantDrained bool
	}{
		{func() {}, 0, true},
		{func() { r.expect(one) }, 1, false},
		{func() { r.expect(one) }, 2, false},
		{func() { r.expect(two) }, 3, false},
		{func() { r.written(jsonrpc2.ID{}) }, 3, false},
		{func() { r.written(one) }, 2, false},
		{func() { r.written(two) }, 1, false},
		{func() { r.written(two) }, 1, false},
		{func() { r.written(one) }, 0, true},
		{func() { r.expect(two) }, 1, false},
		{func() { r.written(two) }, 0, true},
	}
	for i, s := range steps {
		s.do()
		if got := r.owed(); got != s.wantOwed {
			t.Errorf("step %d: owed %d, want %d", i, got, s.wantOwed)
		}
		if got := isDrained(); got != s.wantDrained {
			t.Errorf("step %d: drained %v, want %v", i, got, s.wantDrained)
		}
	}
}
