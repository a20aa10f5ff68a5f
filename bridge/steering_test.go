package bridge_test

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// steerParams are the params of a _session/steering with text, and meta
// when it is not "".
func steerParams(session, text, meta string) json.RawMessage {
	params := `{"sessionId":` + quote(session) + `,"prompt":[{"type":"text","text":` + quote(text) + `}]`
	if meta != "" {
		params += `,"_meta":` + meta
	}
	return json.RawMessage(params + "}")
}

// steer sends a _session/steering and returns its outcome and reason.
func (e *env) steer(session, text, meta string) (outcome, reason string) {
	e.t.Helper()
	var resp struct{ Outcome, Reason string }
	sentAt := len(e.c.Frames())
	if err := e.c.Call(testCtx(e.t), "_session/steering", steerParams(session, text, meta), &resp); err != nil {
		e.t.Fatalf("_session/steering: %v", err)
	}
	if resp.Outcome == "startedNewTurn" {
		// A turn no prompt answers: its updates may come until the end.
		e.mu.Lock()
		e.replays = append(e.replays, replayRec{session: session, from: sentAt, to: math.MaxInt})
		e.mu.Unlock()
	}
	return resp.Outcome, resp.Reason
}

// heldModel answers each request with "answer to <last user text>"; a
// request whose last user text is "hold" waits until released. It keeps
// each request's last user text.
type heldModel struct {
	started chan struct{}
	release chan struct{}
	mu      sync.Mutex
	seen    []string
}

func newHeldModel() *heldModel {
	return &heldModel{started: make(chan struct{}, 1), release: make(chan struct{})}
}

func (m *heldModel) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	text := lastUser(req)
	m.mu.Lock()
	m.seen = append(m.seen, text)
	m.mu.Unlock()
	if text == "hold" {
		m.started <- struct{}{}
		select {
		case <-m.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return textStream(ctx, "answer to "+text), nil
}

func (m *heldModel) requests() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.seen)
}

func TestInitializeAdvertisesSteering(t *testing.T) {
	e := newEnv(t)
	resp := e.initialize(plainInitialize)
	meta, _ := resp["_meta"].(map[string]any)
	steering, _ := meta["steering"].(map[string]any)
	if steering["supported"] != true {
		t.Errorf("initialize _meta = %v, want steering.supported", resp["_meta"])
	}
}

func TestSteeringMidTurnReachesTheNextModelRequest(t *testing.T) {
	m := newHeldModel()
	e := newEnv(t, withProvider(m))
	e.initialize(plainInitialize)
	s := e.newSession("")
	turn := e.startPrompt(s, "hold")
	<-m.started
	if outcome, _ := e.steer(s, "use the v2 API instead", ""); outcome != "injected" {
		t.Fatalf("outcome = %q, want injected", outcome)
	}
	close(m.release)
	if got := turn.stop(); got != "end_turn" {
		t.Errorf("the turn = %s", got)
	}
	if got, want := m.requests(), []string{"hold", "use the v2 API instead"}; !slices.Equal(got, want) {
		t.Errorf("model requests' user texts = %q, want %q (the steered message at the very next request)", got, want)
	}
	var echoed []string
	for _, u := range e.updates(s) {
		if u.Kind == "user_message_chunk" {
			echoed = append(echoed, u.chunkText())
		}
	}
	if !slices.Equal(echoed, []string{"use the v2 API instead"}) {
		t.Errorf("user_message_chunk updates = %q, want the steered message echoed once", echoed)
	}
	if txt := agentText(e.updates(s)); txt != "answer to holdanswer to use the v2 API instead" {
		t.Errorf("agent text = %q", txt)
	}
}

func TestSteeringWithNoTurnRunning(t *testing.T) {
	t.Run("promptRequired is answered when asked for", func(t *testing.T) {
		m := newHeldModel()
		e := newEnv(t, withProvider(m))
		e.initialize(plainInitialize)
		s := e.newSession("")
		outcome, reason := e.steer(s, "hello?", `{"steering":{"idleBehavior":"promptRequired"}}`)
		if outcome != "promptRequired" || reason != "noRunningTurn" {
			t.Errorf("answer = %q, %q; want promptRequired, noRunningTurn", outcome, reason)
		}
		if got := m.requests(); len(got) != 0 {
			t.Errorf("the model was asked %q", got)
		}
	})
	t.Run("otherwise it starts a turn", func(t *testing.T) {
		m := newHeldModel()
		e := newEnv(t, withProvider(m))
		e.initialize(plainInitialize)
		s := e.newSession("")
		if outcome, _ := e.steer(s, "hello?", ""); outcome != "startedNewTurn" {
			t.Fatalf("outcome = %q, want startedNewTurn", outcome)
		}
		if got := e.prompt(s, "and then"); got != "end_turn" { // queued behind the started turn
			t.Errorf("the next prompt = %s", got)
		}
		if got := m.requests(); !slices.Equal(got, []string{"hello?", "and then"}) {
			t.Errorf("model requests = %q, want the steered turn first", got)
		}
		us := e.updates(s)
		if txt := agentText(us); txt != "answer to hello?answer to and then" {
			t.Errorf("agent text = %q", txt)
		}
		if len(us) == 0 || us[0].Kind != "user_message_chunk" || us[0].chunkText() != "hello?" {
			t.Errorf("the first update is not the steered message echoed: %+v", us[:min(len(us), 1)])
		}
	})
}
