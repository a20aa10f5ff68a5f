package bridge_test

import (
	"encoding/json"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

// noticesInitialize advertises notices (schema 1.25).
const noticesInitialize = `{"protocolVersion":1,"clientCapabilities":{"session":{"notices":{}}}}`

// newSessionWithBrokenServer opens a session given an MCP server that
// cannot start.
func newSessionWithBrokenServer(t *testing.T, e *env) string {
	t.Helper()
	params := `{"cwd":` + quote(e.dir) + `,"mcpServers":[{"name":"broken","command":"/nonexistent/mcp-server","args":[],"env":[]}]}`
	var resp struct {
		SessionID string `json:"sessionId"`
	}
	if err := e.c.Call(testCtx(t), "session/new", json.RawMessage(params), &resp); err != nil {
		t.Fatalf("session/new: %v", err)
	}
	return resp.SessionID
}

func TestAFailedServerIsANoticeAtOnce(t *testing.T) {
	e := newEnv(t)
	e.initialize(noticesInitialize)
	s := newSessionWithBrokenServer(t, e)
	f, err := e.c.WaitFrame(testCtx(t), func(f acptest.Frame) bool {
		u, ok := decodeUpdate(f)
		return ok && u.Session == s && u.Kind == "notice"
	})
	if err != nil {
		t.Fatalf("no notice came before any prompt: %v", err)
	}
	var n struct {
		Update struct {
			Severity, Title string
		}
	}
	if err := json.Unmarshal(f.Params, &n); err != nil {
		t.Fatal(err)
	}
	if n.Update.Severity != "warning" || !strings.Contains(n.Update.Title, "broken") {
		t.Errorf("notice = %+v, want a warning naming the server", n.Update)
	}
	if got := e.prompt(s, "hi"); got != "end_turn" {
		t.Errorf("the prompt = %s", got)
	}
	if txt := agentText(e.updates(s)); strings.Contains(txt, "broken") {
		t.Errorf("the notice was told in the conversation too: %q", txt)
	}
}

func TestWithoutNoticesAFailedServerIsToldAtTheNextTurn(t *testing.T) {
	e := newEnv(t)
	e.initialize(plainInitialize)
	s := newSessionWithBrokenServer(t, e)
	// The server fails in the background; the first turn after it has
	// tells it. Each prompt is the event waited on; testCtx's deadline is
	// only the hang guard.
	ctx := testCtx(t)
	for ctx.Err() == nil && !strings.Contains(agentText(e.updates(s)), "MCP server broken") {
		if got := e.prompt(s, "hi"); got != "end_turn" {
			t.Fatalf("the prompt = %s", got)
		}
	}
	if txt := agentText(e.updates(s)); !strings.Contains(txt, "MCP server broken") {
		t.Errorf("the failed server was never told in the conversation: %q", txt)
	}
	for _, u := range e.updates(s) {
		if u.Kind == "notice" {
			t.Errorf("a notice went to a client that does not show them: %+v", u)
		}
	}
}

// TestAnImageLeftOutIsTold: an image the model cannot take is a notice to
// a client that shows them, and a bracketed line of the conversation to
// one that does not.
func TestAnImageLeftOutIsTold(t *testing.T) {
	for _, tt := range []struct {
		name       string
		initialize string
		notice     bool
	}{
		{"with notices", noticesInitialize, true},
		{"without notices", plainInitialize, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.initialize(tt.initialize)
			s := e.newSession("")
			image := acpsdk.ImageBlock("iVBORw0KGgo=", "image/png")
			if got := e.startPromptBlocks(s, acpsdk.TextBlock("what is this?"), image).stop(); got != "end_turn" {
				t.Fatalf("the prompt = %s", got)
			}
			var notices []string
			for _, u := range e.updates(s) {
				if u.Kind == "notice" {
					notices = append(notices, string(e.c.Frames()[u.Frame].Params))
				}
			}
			inText := strings.Contains(agentText(e.updates(s)), "[The image in this prompt was not sent")
			if tt.notice && (len(notices) != 1 || !strings.Contains(notices[0], "was not sent") || inText) {
				t.Errorf("notices %q, told in the conversation %v; want one notice only", notices, inText)
			}
			if !tt.notice && (len(notices) != 0 || !inText) {
				t.Errorf("notices %q, told in the conversation %v; want the conversation only", notices, inText)
			}
		})
	}
}
