package bridge_test

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

// steerWithImage sends a _session/steering of text and a PNG image and
// returns its outcome.
func (e *env) steerWithImage(session, text, image string) string {
	e.t.Helper()
	params := `{"sessionId":` + quote(session) + `,"prompt":[{"type":"text","text":` + quote(text) + `},{"type":"image","mimeType":"image/png","data":` + quote(image) + `}]}`
	var resp struct{ Outcome string }
	sentAt := len(e.c.Frames())
	if err := e.c.Call(testCtx(e.t), "_session/steering", json.RawMessage(params), &resp); err != nil {
		e.t.Fatalf("_session/steering: %v", err)
	}
	if resp.Outcome == "startedNewTurn" {
		e.mu.Lock()
		e.replays = append(e.replays, replayRec{session: session, from: sentAt, to: math.MaxInt})
		e.mu.Unlock()
	}
	return resp.Outcome
}

// TestSteeredImagesShowWhereTheyLanded: a steered message shows with its
// image where it landed, whether it reached a running turn or started
// one of its own.
func TestSteeredImagesShowWhereTheyLanded(t *testing.T) {
	const png = "iVBORw0KGgo="
	for _, tt := range []struct {
		name    string
		running bool
		outcome string
	}{
		{"into a running turn", true, "injected"},
		{"with no turn running", false, "startedNewTurn"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := newHeldModel()
			e := newEnv(t, withProvider(m))
			e.initialize(plainInitialize)
			s := e.newSession("")
			var turn *pending
			if tt.running {
				turn = e.startPrompt(s, "hold")
				<-m.started
			}
			if got := e.steerWithImage(s, "this one", png); got != tt.outcome {
				t.Fatalf("outcome = %q, want %q", got, tt.outcome)
			}
			if tt.running {
				close(m.release)
				if got := turn.stop(); got != "end_turn" {
					t.Fatalf("the turn = %s", got)
				}
			} else if got := e.prompt(s, "and then"); got != "end_turn" { // after the steered turn
				t.Fatalf("the next prompt = %s", got)
			}
			var echoed []string
			for _, u := range e.updates(s) {
				if u.Kind != "user_message_chunk" {
					continue
				}
				var b struct{ Type, Text, Data, MimeType string }
				if err := json.Unmarshal(u.Content, &b); err != nil {
					t.Fatal(err)
				}
				echoed = append(echoed, b.Type+":"+b.Text+b.MimeType+" "+b.Data)
			}
			if want := []string{"text:this one ", "image:image/png " + png}; !slices.Equal(echoed, want) {
				t.Errorf("user_message_chunk updates = %q, want %q", echoed, want)
			}
		})
	}
}
