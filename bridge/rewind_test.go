package bridge_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// command sends a slash command and returns the agent's reply to it.
func command(t *testing.T, e *env, s, line string) string {
	t.Helper()
	from := len(e.updates(s))
	if got := e.prompt(s, line); got != "end_turn" {
		t.Fatalf("%s = %s", line, got)
	}
	return agentText(e.updates(s)[from:])
}

// conversation is what a model request holds, role by role.
func conversation(req llm.Request) string {
	var parts []string
	for _, m := range req.Messages {
		parts = append(parts, string(m.Role)+":"+m.Content)
	}
	return strings.Join(parts, "|")
}

// lastRequest is the model's latest request.
func lastRequest(t *testing.T, model *llm.Scripted) llm.Request {
	t.Helper()
	reqs := model.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model was never asked")
	}
	return reqs[len(reqs)-1]
}

// wantReply fails unless reply holds each of wants.
func wantReply(t *testing.T, what, reply string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(reply, want) {
			t.Errorf("%s: the reply %q lacks %q", what, reply, want)
		}
	}
}

// /rewind reverts the last turn's file and drops the turn: the next model
// request holds neither its prompt nor its answer. A session/load in a new
// process replays the conversation as it now is — without the turn and
// the /rewind exchange — and its next request has no trace of them.
func TestRewindDropsTheTurnFromTheConversation(t *testing.T) {
	state, dir := t.TempDir(), tempDir(t)
	write, read := filesIn(t, dir)
	write("kept.txt", "as it was\n")
	model := llm.NewScripted(
		toolStep("w1", "write", map[string]any{"file_path": "one.txt", "content": "turn one\n"}),
		llm.Message{Content: "Wrote one."},
		toolStep("w2", "write", map[string]any{"file_path": "two.txt", "content": "turn two\n"}),
		llm.Message{Content: "Wrote two."},
		llm.Message{Content: "Third answer."},
	)
	store := openStore(t, state)
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess), withStore(store), withState(state), withDir(dir))
	e.initialize(plainInitialize)
	s := e.newSession("")
	e.prompt(s, "write one")
	e.prompt(s, "write two")

	reply := command(t, e, s, "/rewind")
	wantReply(t, "/rewind", reply, `Dropped the last turn ("write two") from the conversation`, "Reverted 1 file the turn changed:\n- two.txt")
	if _, ok := read("two.txt"); ok {
		t.Error("/rewind left the second turn's file")
	}
	if got, ok := read("one.txt"); !ok || got != "turn one\n" {
		t.Errorf("/rewind went past the second turn: one.txt = %q, %t", got, ok)
	}
	e.prompt(s, "third")
	got := conversation(lastRequest(t, model))
	if strings.Contains(got, "write two") || strings.Contains(got, "Wrote two.") || strings.Contains(got, "two.txt") {
		t.Errorf("the request after /rewind holds the dropped turn: %s", got)
	}
	if !strings.HasPrefix(got, "user:write one|") || !strings.HasSuffix(got, "|user:third") {
		t.Errorf("the request after /rewind = %s", got)
	}
	e.c.Close()

	model2 := llm.NewScripted(llm.Message{Content: "Fourth answer."})
	e2 := newEnv(t, withProvider(model2), withPreset(policy.FullAccess), withStore(openStore(t, state)), withState(state), withDir(dir))
	e2.initialize(plainInitialize)
	var setup map[string]any
	if err := e2.load(s, dir, &setup); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	var replayed strings.Builder
	for _, u := range e2.updates(s) {
		replayed.WriteString(u.Kind + ":" + u.chunkText() + "\n")
	}
	for _, gone := range []string{"write two", "Wrote two.", "/rewind", "Dropped", "Restored"} {
		if strings.Contains(replayed.String(), gone) {
			t.Errorf("the replay shows %q, which /rewind dropped:\n%s", gone, replayed.String())
		}
	}
	for _, kept := range []string{"write one", "Wrote one.", "third", "Third answer."} {
		if !strings.Contains(replayed.String(), kept) {
			t.Errorf("the replay lacks %q:\n%s", kept, replayed.String())
		}
	}
	e2.prompt(s, "fourth")
	if got := conversation(lastRequest(t, model2)); strings.Contains(got, "two") {
		t.Errorf("the request after the load holds the dropped turn: %s", got)
	}
}

// /rewind repeated goes one turn further back each time. A turn an
// /undo reverted already is dropped, with the /undo exchange, without
// touching a file; the next /rewind reverts the turn before it.
func TestRewindRepeatedDropsEachTurn(t *testing.T) {
	dir := tempDir(t)
	_, read := filesIn(t, dir)
	model := llm.NewScripted(
		toolStep("w1", "write", map[string]any{"file_path": "one.txt", "content": "1\n"}),
		llm.Message{Content: "Wrote one."},
		toolStep("w2", "write", map[string]any{"file_path": "two.txt", "content": "2\n"}),
		llm.Message{Content: "Wrote two."},
		llm.Message{Content: "Fresh start."},
		toolStep("w3", "write", map[string]any{"file_path": "three.txt", "content": "3\n"}),
		llm.Message{Content: "Wrote three."},
		toolStep("w4", "write", map[string]any{"file_path": "four.txt", "content": "4\n"}),
		llm.Message{Content: "Wrote four."},
		llm.Message{Content: "Again fresh."},
	)
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess), withDir(dir))
	e.initialize(plainInitialize)
	s := e.newSession("")
	e.prompt(s, "write one")
	e.prompt(s, "write two")
	command(t, e, s, "/rewind")
	wantReply(t, "the second /rewind", command(t, e, s, "/rewind"), `Dropped the last turn ("write one")`, "- one.txt")
	for _, name := range []string{"one.txt", "two.txt"} {
		if _, ok := read(name); ok {
			t.Errorf("%s is still there after two /rewinds", name)
		}
	}
	e.prompt(s, "start over")
	if got := conversation(lastRequest(t, model)); got != "user:start over" {
		t.Errorf("the request after two /rewinds = %s", got)
	}

	e.prompt(s, "write three")
	e.prompt(s, "write four")
	command(t, e, s, "/undo")
	wantReply(t, "/rewind after /undo", command(t, e, s, "/rewind"),
		`Dropped the last turn ("write four")`, "no file was reverted")
	if _, ok := read("three.txt"); !ok {
		t.Error("/rewind of the undone turn reverted the one before it")
	}
	wantReply(t, "the /rewind after it", command(t, e, s, "/rewind"), `Dropped the last turn ("write three")`, "- three.txt")
	e.prompt(s, "again")
	got := conversation(lastRequest(t, model))
	if want := "user:start over|assistant:Fresh start.|user:again"; got != want {
		t.Errorf("the request after /undo and two /rewinds = %s, want %s", got, want)
	}
}

// /rewind refuses, changing nothing, with no turn left to take back and
// for a turn a compaction summary covers; a summary of only the turns
// before the one it drops stays. It never overwrites a file changed since
// the turn, says so, and tells the model of it.
func TestRewindRefusalsAndConflicts(t *testing.T) {
	dir := tempDir(t)
	write, read := filesIn(t, dir)
	model := llm.NewScripted(
		toolStep("w1", "write", map[string]any{"file_path": "one.txt", "content": "turn one\n"}),
		llm.Message{Content: "Wrote one."},
		llm.Message{Content: "Answered two."},
		llm.Message{Content: "The user wrote one.txt."}, // the summary
		llm.Message{Content: "Three."},
		toolStep("w4", "write", map[string]any{"file_path": "four.txt", "content": "turn four\n"}),
		llm.Message{Content: "Wrote four."},
		llm.Message{Content: "Five."},
	)
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess), withDir(dir))
	e.initialize(plainInitialize)
	s := e.newSession("")
	wantReply(t, "/rewind first", command(t, e, s, "/rewind"), "Nothing to rewind")

	e.prompt(s, "write one")
	e.prompt(s, "answer two")
	command(t, e, s, "/compact") // the summary covers turn one
	wantReply(t, "/rewind of the turn after the summary", command(t, e, s, "/rewind"), `Dropped the last turn ("answer two")`)
	wantReply(t, "/rewind of a summarized turn", command(t, e, s, "/rewind"),
		"Cannot rewind the last turn", "/undo can still revert its files")
	if _, ok := read("one.txt"); !ok {
		t.Error("a refused /rewind reverted the turn's file")
	}
	e.prompt(s, "three")
	if got := conversation(lastRequest(t, model)); !strings.Contains(got, "The user wrote one.txt.") || strings.Contains(got, "answer two") {
		t.Errorf("after /rewind of the turn after a summary, the model saw %s", got)
	}

	e.prompt(s, "write four")
	write("four.txt", "the user's edit\n")
	wantReply(t, "/rewind of a file changed since", command(t, e, s, "/rewind"),
		"Left as it is (nothing was overwritten or deleted):\n- four.txt: it changed after the turn")
	if got, _ := read("four.txt"); got != "the user's edit\n" {
		t.Errorf("four.txt = %q, want the user's edit kept", got)
	}
	e.prompt(s, "five")
	got := conversation(lastRequest(t, model))
	if strings.Contains(got, "write four") || !strings.Contains(got, "four.txt. Read them again") {
		t.Errorf("after /rewind with a file left, the model saw %s", got)
	}
}

// A /rewind sent while a model turn runs waits for it, as /undo does,
// then takes that turn back, with the message the user steered into it.
func TestRewindWaitsForTheRunningTurn(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	var mu sync.Mutex
	var requests []llm.Request
	last := func() llm.Request {
		mu.Lock()
		defer mu.Unlock()
		return requests[len(requests)-1]
	}
	model := providerFunc(func(ctx context.Context, req llm.Request) (*llm.Stream, error) {
		mu.Lock()
		requests = append(requests, req)
		mu.Unlock()
		if lastUser(req) == "slow" {
			started <- struct{}{}
			<-release
		}
		return textStream(ctx, "done"), nil
	})
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess))
	e.initialize(plainInitialize)
	s := e.newSession("")
	slow := e.startPrompt(s, "slow")
	<-started
	if outcome, _ := e.steer(s, "also this", ""); outcome != "injected" {
		t.Fatalf("steering into the running turn: %s", outcome)
	}
	rewind := e.startPrompt(s, "/rewind")
	close(release)
	if got := slow.stop(); got != "end_turn" {
		t.Errorf("the running turn ended %s", got)
	}
	if got := rewind.stop(); got != "end_turn" {
		t.Errorf("/rewind ended %s", got)
	}
	if got := conversation(last()); got != "user:slow|assistant:done|user:also this" {
		t.Fatalf("the model did not read the steered message: %s", got)
	}
	wantReply(t, "/rewind during a turn", agentReply(e, s), `Dropped the last turn ("slow")`)
	e.prompt(s, "next")
	if got := conversation(last()); got != "user:next" {
		t.Errorf("the request after /rewind = %s", got)
	}
}
