package bridge_test

import (
	"errors"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/bridge"
)

// modelState is the older "models" member of a session setup.
type modelState struct {
	CurrentModelID  string `json:"currentModelId"`
	AvailableModels []struct {
		ModelID     string `json:"modelId"`
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"availableModels"`
}

// sessionSetup is what session/new, load and resume answer of a
// session's settings.
type sessionSetup struct {
	SessionID     string         `json:"sessionId"`
	Models        *modelState    `json:"models"`
	ConfigOptions []configOption `json:"configOptions"`
}

// TestLegacyModelChoice: clients that pick the model the older way
// (agent-shell, the AI SDK provider) find the models in the "models"
// member of session/new, load and resume, and switch with
// session/set_model; either way of setting the model shows in the other
// (a config_option_update after set_model, the models member after a
// config option change), and the choice is stored with the session.
func TestLegacyModelChoice(t *testing.T) {
	models := []bridge.ModelChoice{
		{ID: "fast", Name: "Fast", Description: "quick answers"},
		{ID: "deep", Name: "Deep", Efforts: []string{"high", "max"}, DefaultEffort: "high"},
	}
	state, dir := t.TempDir(), tempDir(t)
	e := newEnv(t, withStore(openStore(t, state)), withDir(dir), withModels(models...), withDefaultModel("fast"))
	e.initialize(plainInitialize)
	var created sessionSetup
	if err := e.c.Call(testCtx(t), "session/new", acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}}, &created); err != nil {
		t.Fatalf("session/new: %v", err)
	}
	id := created.SessionID
	wantModels(t, "session/new", created, "fast")
	if m := created.Models; m != nil && (len(m.AvailableModels) != 2 || m.AvailableModels[0].Name != "Fast" || m.AvailableModels[0].Description != "quick answers" || m.AvailableModels[1].ModelID != "deep") {
		t.Errorf("availableModels = %+v, want fast (Fast, quick answers) and deep", m.AvailableModels)
	}

	setModel := func(model string) error {
		var resp map[string]any
		return e.c.Call(testCtx(t), "session/set_model", map[string]any{"sessionId": id, "modelId": model}, &resp)
	}
	if err := setModel("deep"); err != nil {
		t.Fatalf("session/set_model: %v", err)
	}
	e.waitUpdate(id, "config_option_update after set_model", func(u update) bool {
		return u.Kind == "config_option_update" && strings.Contains(string(u.Raw), `"currentValue":"deep"`) && strings.Contains(string(u.Raw), `"currentValue":"high"`)
	})
	var bad *acptest.RPCError
	if err := setModel("nonexistent"); !errors.As(err, &bad) || bad.Code != -32602 || !strings.Contains(bad.Message, "nonexistent") {
		t.Errorf("set_model of a model not on offer: %v, want -32602 naming it", err)
	}
	err := e.c.Call(testCtx(t), "session/set_model", map[string]any{"sessionId": "nope", "modelId": "fast"}, nil)
	if !errors.As(err, &bad) || bad.Code != -32602 {
		t.Errorf("set_model of an unknown session: %v, want -32602", err)
	}
	if e.prompt(id, "hello") != "end_turn" {
		t.Fatal("prompt failed")
	}
	e.c.Close()

	// Stored: a later process resumes and loads the session with the
	// model set_model chose, and a config option change shows in the
	// models member.
	e2 := newEnv(t, withStore(openStore(t, state)), withDir(dir), withModels(models...), withDefaultModel("fast"))
	e2.initialize(plainInitialize)
	var resumed sessionSetup
	if err := e2.c.Call(testCtx(t), "session/resume", acpsdk.ResumeSessionRequest{SessionId: acpsdk.SessionId(id), Cwd: dir}, &resumed); err != nil {
		t.Fatalf("session/resume: %v", err)
	}
	wantModels(t, "session/resume", resumed, "deep")
	var changed struct {
		ConfigOptions []configOption `json:"configOptions"`
	}
	if err := e2.c.Call(testCtx(t), "session/set_config_option", map[string]any{"sessionId": id, "configId": "model", "value": "fast"}, &changed); err != nil {
		t.Fatalf("set_config_option: %v", err)
	}
	var loaded sessionSetup
	if err := e2.load(id, dir, &loaded); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	wantModels(t, "session/load after set_config_option", loaded, "fast")

	// No model on offer: no models member.
	plain := newEnv(t)
	plain.initialize(plainInitialize)
	var bare sessionSetup
	if err := plain.c.Call(testCtx(t), "session/new", acpsdk.NewSessionRequest{Cwd: plain.dir, McpServers: []acpsdk.McpServer{}}, &bare); err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if bare.Models != nil {
		t.Errorf("models = %+v without any model on offer", bare.Models)
	}
}

// wantModels checks that a setup's models member and its model config
// option both name current.
func wantModels(t *testing.T, what string, s sessionSetup, current string) {
	t.Helper()
	if s.Models == nil || s.Models.CurrentModelID != current {
		t.Errorf("%s: models = %+v, want currentModelId %q", what, s.Models, current)
	}
	if got, _ := optionValue(s.ConfigOptions, "model"); got != current {
		t.Errorf("%s: the model option is %q, want %q", what, got, current)
	}
}

// TestModelValuesSayWhetherTheyTakeImages: a model value's _meta says
// whether the model takes images when that is known, and says nothing
// of a model whose images are unknown, so the editor can tell the user
// before a prompt carries an image the model would not see.
func TestModelValuesSayWhetherTheyTakeImages(t *testing.T) {
	yes, no := true, false
	models := []bridge.ModelChoice{
		{ID: "eyes", Name: "Eyes", Images: &yes},
		{ID: "text", Name: "Text", Images: &no},
		{ID: "listed", Name: "Listed"},
	}
	dir := tempDir(t)
	e := newEnv(t, withDir(dir), withModels(models...), withDefaultModel("text"))
	e.initialize(plainInitialize)
	var created struct {
		ConfigOptions []struct {
			ID      string `json:"id"`
			Options []struct {
				Value string                    `json:"value"`
				Meta  map[string]map[string]any `json:"_meta"`
			} `json:"options"`
		} `json:"configOptions"`
	}
	if err := e.c.Call(testCtx(t), "session/new", acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}}, &created); err != nil {
		t.Fatalf("session/new: %v", err)
	}
	want := map[string]any{"eyes": true, "text": false, "listed": nil}
	found := 0
	for _, o := range created.ConfigOptions {
		if o.ID != "model" {
			continue
		}
		for _, v := range o.Options {
			found++
			var got any
			if m, ok := v.Meta["dsh-acp"]; ok {
				got = m["images"]
			}
			if got != want[v.Value] {
				t.Errorf("%s: _meta images = %v, want %v", v.Value, got, want[v.Value])
			}
		}
	}
	if found != len(want) {
		t.Errorf("the model option offers %d values, want %d", found, len(want))
	}
}
