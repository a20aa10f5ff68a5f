package bridge_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/llm"
)

// TestLoadReplaysTheUserImages: a replayed prompt shows the images the
// user sent with it, after its words and in their order, whole (a
// multi-megabyte one too: a frame has no size limit on the way out), as
// image blocks every frame of which the harness checks against the
// schema.
func TestLoadReplaysTheUserImages(t *testing.T) {
	small := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n"))
	large := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\x89PNG pixels ", 100_000))) // 1.6 MB of base64
	state := t.TempDir()
	e := newEnv(t, withProvider(llm.NewScripted(llm.Message{Content: "A small and a large picture."})), withStore(openStore(t, state)))
	e.initialize(caps(false, false, false))
	id := e.newSession("")
	if got := e.startPromptBlocks(id, acpsdk.TextBlock("what are these?"), acpsdk.ImageBlock(small, "image/png"), acpsdk.ImageBlock(large, "image/jpeg")).stop(); got != "end_turn" {
		t.Fatalf("the prompt = %s", got)
	}
	e.c.Close()

	e2 := newEnv(t, withProvider(llm.NewScripted()), withStore(openStore(t, state)), withDir(e.dir))
	e2.initialize(caps(false, false, false))
	var setup map[string]any
	if err := e2.load(id, e.dir, &setup); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	type block struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     string `json:"data"`
		MimeType string `json:"mimeType"`
	}
	var got []block
	for _, u := range e2.updates(id) {
		if u.Kind != "user_message_chunk" {
			continue
		}
		var b block
		if err := json.Unmarshal(u.Content, &b); err != nil {
			t.Fatalf("a user_message_chunk's content: %v", err)
		}
		got = append(got, b)
	}
	want := []block{{Type: "text", Text: "what are these?"}, {Type: "image", Data: small, MimeType: "image/png"}, {Type: "image", Data: large, MimeType: "image/jpeg"}}
	if len(got) != len(want) {
		t.Fatalf("replayed user chunks: %d, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("user chunk %d = %s %q %s (%d bytes of data), want %s %q %s (%d bytes)", i, got[i].Type, got[i].Text, got[i].MimeType, len(got[i].Data), want[i].Type, want[i].Text, want[i].MimeType, len(want[i].Data))
		}
	}
}
