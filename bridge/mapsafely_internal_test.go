package bridge

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// strangeCall is a call card outside the closed union, as a bug would
// make one.
type strangeCall struct{ presentation.CallView }

// TestMapSafelyIsTheOneBoundary: a panic of the mapping is caught where
// the bridge shows a session's events: logged, counted for the tests to
// fail on, and the call shown with the generic card; the session goes on.
func TestMapSafelyIsTheOneBoundary(t *testing.T) {
	var log bytes.Buffer
	b := New(nil, Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	s := &liveSession{id: "s1", bridge: b, mapper: NewMapper(MapperOptions{})}

	updates := s.mapSafely(session.Event{Payload: session.ToolCall{CallID: "c1", Name: "weird", View: strangeCall{}}})
	if call, ok := only[acp.ToolCall](updates); !ok || call.Title != "weird" || call.Kind != acp.ToolKindOther {
		t.Errorf("updates = %#v, want the generic card of c1", updates)
	}
	if n := b.MappingPanics(); n != 1 {
		t.Errorf("MappingPanics = %d, want 1", n)
	}
	if !strings.Contains(log.String(), "unreachable variant: call card bridge.strangeCall") || !strings.Contains(log.String(), "session=s1") {
		t.Errorf("log = %q, want the panic and the session", log.String())
	}

	updates = s.mapSafely(session.Event{Payload: session.ToolResult{CallID: "c1", Content: []presentation.ContentBlock{presentation.Text("ok")}}})
	if u, ok := only[acp.ToolCallUpdate](updates); !ok || u.Status != acp.ToolCallStatusCompleted {
		t.Errorf("updates = %#v, want c1 completed", updates)
	}
	if n := b.MappingPanics(); n != 1 {
		t.Errorf("MappingPanics = %d after an event that maps, want 1", n)
	}
}

// only returns the one update in updates, when it is a T.
func only[T acp.Update](updates []acp.Update) (T, bool) {
	var zero T
	if len(updates) != 1 {
		return zero, false
	}
	u, ok := updates[0].(T)
	return u, ok
}
