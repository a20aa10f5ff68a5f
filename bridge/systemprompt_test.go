package bridge_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// newSessionWithPrompt sends session/new with the raw systemPrompt.
func newSessionWithPrompt(e *env, systemPrompt string) (string, error) {
	params := `{"cwd":` + quote(e.dir) + `,"mcpServers":[],"systemPrompt":` + systemPrompt + `}`
	var resp struct {
		SessionID string `json:"sessionId"`
	}
	err := e.c.Call(testCtx(e.t), "session/new", json.RawMessage(params), &resp)
	return resp.SessionID, err
}

func TestInitializeAdvertisesSystemPrompts(t *testing.T) {
	e := newEnv(t)
	resp := e.initialize(plainInitialize)
	caps, _ := resp["agentCapabilities"].(map[string]any)
	session, _ := caps["sessionCapabilities"].(map[string]any)
	prompt, _ := session["systemPrompt"].(map[string]any)
	mode, _ := prompt["mode"].(map[string]any)
	if _, ok := mode["override"]; !ok {
		t.Errorf("sessionCapabilities = %v, want systemPrompt with override", session)
	}
	if _, ok := session["close"]; !ok {
		t.Errorf("the other session capabilities were lost: %v", session)
	}
}

func TestClientSystemPromptsReachTheModel(t *testing.T) {
	tests := []struct {
		name, prompt  string
		want, without string
	}{
		{"append", `{"mode":"append","content":[{"type":"text","text":"Answer in French."}]}`, "# Instructions from the editor\nAnswer in French.", ""},
		{"override", `{"mode":"override","content":[{"type":"text","text":"You review; you change nothing."}]}`, "You review; you change nothing.", "# How to work"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := llm.NewScripted(llm.Message{Content: "ok"})
			e := newEnv(t, withProvider(model))
			e.initialize(plainInitialize)
			s, err := newSessionWithPrompt(e, tt.prompt)
			if err != nil {
				t.Fatal(err)
			}
			e.prompt(s, "hi")
			system := model.Requests()[0].System
			if !strings.Contains(system, tt.want) || tt.without != "" && strings.Contains(system, tt.without) {
				t.Errorf("system prompt:\n%s\nwant it to hold %q and not %q", system, tt.want, tt.without)
			}
		})
	}
}

func TestUnsupportedSystemPromptsAreRefused(t *testing.T) {
	e := newEnv(t)
	e.initialize(plainInitialize)
	for name, prompt := range map[string]string{
		"an unknown mode":   `{"mode":"prepend","content":[{"type":"text","text":"x"}]}`,
		"an image block":    `{"mode":"append","content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}`,
		"no content":        `{"mode":"append","content":[]}`,
		"content not array": `{"mode":"append","content":"x"}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := newSessionWithPrompt(e, prompt)
			wantRPCError(t, err, -32602, "systemPrompt")
		})
	}
}

func TestAResumedSessionKeepsItsSystemPrompt(t *testing.T) {
	state, dir := t.TempDir(), tempDir(t)
	e := newEnv(t, withStore(openStore(t, state)), withDir(dir))
	e.initialize(plainInitialize)
	s, err := newSessionWithPrompt(e, `{"mode":"append","content":[{"type":"text","text":"Answer in French."}]}`)
	if err != nil {
		t.Fatal(err)
	}
	e.prompt(s, "hi")
	e.c.Close()

	model := llm.NewScripted(llm.Message{Content: "Bonjour."})
	e2 := newEnv(t, withProvider(model), withStore(openStore(t, state)), withDir(dir))
	e2.initialize(plainInitialize)
	params := `{"sessionId":` + quote(s) + `,"cwd":` + quote(dir) + `}`
	if err := e2.c.Call(testCtx(t), "session/resume", json.RawMessage(params), nil); err != nil {
		t.Fatalf("session/resume: %v", err)
	}
	e2.prompt(s, "again")
	if system := model.Requests()[0].System; !strings.Contains(system, "Answer in French.") {
		t.Errorf("the resumed session lost its system prompt:\n%s", system)
	}
}
