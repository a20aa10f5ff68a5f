package subagent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/subagent"
)

// TestChildAsksLikeTheParent: a general child's command asks through the
// parent's approver, the request names the child's call inside the task
// call, and the answer reaches the child.
func TestChildAsksLikeTheParent(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.model.script("go", calls(call("t1", "task", map[string]any{"description": "build it", "prompt": "build"})), answer("done"))
	f.model.script("build", calls(call("c1", "bash", map[string]any{"command": "make"})), answer("built"))
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := f.prompt(ctx, "go")
		done <- err
	}()
	var a ask
	select {
	case a = <-f.asks:
	case <-ctx.Done():
		t.Fatal("the child's command never asked")
	}
	if a.req.CallID != "c1" || a.req.ToolName != "bash" || a.req.Call.Parent() == nil || a.req.Call.Parent().ID() != "t1" {
		t.Errorf("the ask = %+v, want the child's c1 inside t1", a.req)
	}
	if a.req.Call.RootID() != "t1" || !a.req.Call.TopLevel() {
		t.Errorf("root %q, top level %v: want t1 and true (the child's model made the call)", a.req.Call.RootID(), a.req.Call.TopLevel())
	}
	a.reply <- pipeline.ApprovalAllowedOnce
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if r := f.result("t1"); r.IsError || text(r) != "built" {
		t.Errorf("task = %+v", r)
	}
	for _, p := range f.childEvents("t1") {
		if r, ok := p.(session.ToolResult); ok && r.CallID == "c1" && (r.IsError || text(r) != "ran make") {
			t.Errorf("the child's command = %+v, want it run", r)
		}
	}
}

// TestCancelDuringAChildsAsk: cancelling the parent's turn while a
// child's command waits for approval answers the ask and ends the child
// and the parent as cancelled.
func TestCancelDuringAChildsAsk(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.model.script("go", calls(call("t1", "task", map[string]any{"description": "build it", "prompt": "build"})), answer("done"))
	f.model.script("build", calls(call("c1", "bash", map[string]any{"command": "make"})), answer("built"))
	guard, stop := context.WithTimeout(context.Background(), hangGuard)
	defer stop()
	ctx, cancel := context.WithCancel(guard)
	type outcome struct {
		reason session.StopReason
		err    error
	}
	done := make(chan outcome, 1)
	go func() {
		reason, err := f.prompt(ctx, "go")
		done <- outcome{reason, err}
	}()
	select {
	case <-f.asks: // never answered
	case <-guard.Done():
		t.Fatal("the child's command never asked")
	}
	cancel()
	var got outcome
	select {
	case got = <-done:
	case <-guard.Done():
		t.Fatal("the turn did not end after cancel")
	}
	if got.err != nil || got.reason != session.StopCancelled {
		t.Errorf("the parent ended %v, %v; want cancelled", got.reason, got.err)
	}
	var ended *session.SubagentEnded
	for _, ev := range f.log.Events() {
		if e, ok := ev.Payload.(session.SubagentEnded); ok {
			ended = &e
		}
	}
	if ended == nil || ended.Reason != session.StopCancelled {
		t.Errorf("the child ended %+v, want cancelled", ended)
	}
	if r := f.result("t1"); !r.IsError {
		t.Errorf("task = %+v, want a failed (aborted) result", r)
	}
	for _, p := range f.childEvents("t1") {
		if r, ok := p.(session.ToolResult); ok && r.CallID == "c1" && !r.IsError {
			t.Errorf("the child's command ran: %+v", r)
		}
	}
}

// TestCancelOneChild: Runner.Cancel stops one child alone; its task
// fails saying the user stopped it, its sibling finishes, and the
// parent's turn goes on.
func TestCancelOneChild(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.model.script("go", calls(
		call("t1", "task", map[string]any{"description": "slow", "prompt": "slow", "subagent_type": "explore"}),
		call("t2", "task", map[string]any{"description": "quick", "prompt": "quick", "subagent_type": "explore"}),
	), answer("done"))
	f.model.script("slow", answer("never"))
	f.model.script("quick", answer("quick answer"))
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	f.model.hold = func(ctx context.Context, route string) error {
		if route != "slow" {
			return nil
		}
		<-ctx.Done() // answered by nobody: only a cancel ends it
		return ctx.Err()
	}
	done := make(chan session.StopReason, 1)
	go func() {
		reason, _ := f.prompt(ctx, "go")
		done <- reason
	}()
	if err := f.model.waitFor(ctx, func(m *routedModel) bool { return len(m.requests["slow"]) == 1 }); err != nil {
		t.Fatal("the slow child never asked its model")
	}
	var slow string
	for _, ev := range f.log.Events() {
		if s, ok := ev.Payload.(session.SubagentStarted); ok && s.CallID == "t1" {
			slow = s.ID
		}
	}
	if f.runner.Cancel("sub_nobody") {
		t.Errorf("Cancel of an unknown child reported one")
	}
	if !f.runner.Cancel(slow) {
		t.Fatalf("Cancel(%q) found no running child", slow)
	}
	if reason := <-done; reason != session.StopEndTurn {
		t.Errorf("the parent ended %s, want end_turn", reason)
	}
	if r := f.result("t1"); !r.IsError || !strings.Contains(text(r), subagent.ErrCancelled.Error()) {
		t.Errorf("the stopped task = %+v", r)
	}
	if r := f.result("t2"); r.IsError || text(r) != "quick answer" {
		t.Errorf("the sibling = %+v", r)
	}
	if f.runner.Cancel(slow) {
		t.Errorf("Cancel of an ended child reported one")
	}
}

// TestParentPresetBoundsTheChild: a general child of a read-only parent
// asks before a write, as its parent would, and a rejected write does not
// run (an explore child's limit under a full-access parent is
// TestExploreRefusesCommandsThatAreNotReadOnly's).
func TestParentPresetBoundsTheChild(t *testing.T) {
	f := newFixture(t, fixtureOptions{preset: "read-only"})
	f.model.script("go", calls(call("t1", "task", map[string]any{"description": "d", "prompt": "write it"})), answer("done"))
	f.model.script("write it", calls(call("c1", "write", map[string]any{"path": "a.txt"})), answer("wrote"))
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := f.prompt(ctx, "go")
		done <- err
	}()
	select {
	case a := <-f.asks:
		if a.req.ToolName != "write" || !strings.Contains(a.req.Reason, "read-only asks") {
			t.Errorf("the ask = %s (%s)", a.req.ToolName, a.req.Reason)
		}
		a.reply <- pipeline.ApprovalRejected
	case <-ctx.Done():
		t.Fatal("the child's write under a read-only parent did not ask")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, p := range f.childEvents("t1") {
		if r, ok := p.(session.ToolResult); ok && r.CallID == "c1" && !r.IsError {
			t.Errorf("the rejected write ran: %+v", r)
		}
	}
}
