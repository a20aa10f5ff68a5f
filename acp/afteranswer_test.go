package acp_test

import (
	"context"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

// What a method leaves for after its answer is sent after the answer: a
// session/new's updates reach a client that knows the session's id.
func TestAfterAnswerRunsOnceTheAnswerIsWritten(t *testing.T) {
	agent := &fakeAgent{}
	agent.newSession = func(ctx context.Context, _ acp.NewSessionRequest) (acp.NewSessionResponse, error) {
		conn := agent.conn
		if !acp.AfterAnswer(ctx, func() {
			go conn.SessionUpdate(context.Background(), "s1", acp.AvailableCommandsUpdate{AvailableCommands: []acp.AvailableCommand{{Name: "undo", Description: "Undo the last turn"}}})
		}) {
			t.Error("AfterAnswer found no request in a method's context")
		}
		return acp.NewSessionResponse{SessionID: "s1"}, nil
	}
	c := newClient(t, agent)
	ctx := testCtx(t)
	if err := c.Call(ctx, "session/new", acpsdk.NewSessionRequest{Cwd: "/", McpServers: []acpsdk.McpServer{}}, nil); err != nil {
		t.Fatal(err)
	}
	answered := -1
	f, err := c.WaitFrame(ctx, func(f acptest.Frame) bool { return f.Method == "session/update" })
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range c.Frames() {
		if g.Answers == "session/new" {
			answered = i
		}
		if string(g.Raw) == string(f.Raw) && (answered < 0 || i < answered) {
			t.Fatalf("the update (frame %d) came before the answer (frame %d)", i, answered)
		}
	}
	if acp.AfterAnswer(context.Background(), func() {}) {
		t.Error("AfterAnswer took a function outside any request")
	}
}
