package llm_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// TestUserPartsAreSentAsContentParts: a user message with parts goes out
// as OpenAI content parts in order, images as data URLs; one without parts
// stays a plain string.
func TestUserPartsAreSentAsContentParts(t *testing.T) {
	tests := []struct {
		name string
		msg  llm.Message
		want any
	}{
		{
			name: "text only",
			msg:  llm.UserMessage("hello"),
			want: "hello",
		},
		{
			name: "text and image",
			msg: llm.Message{Role: llm.RoleUser, Content: "look\n[image content]", Parts: []llm.Part{
				llm.TextPart("look"), llm.ImagePart("image/png", "iVBORw0KGgo="),
			}},
			want: []any{
				map[string]any{"type": "text", "text": "look"},
				map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,iVBORw0KGgo="}},
			},
		},
		{
			name: "image first, text after",
			msg: llm.Message{Role: llm.RoleUser, Parts: []llm.Part{
				llm.ImagePart("image/jpeg", "/9j/"), llm.TextPart("what is this?"),
			}},
			want: []any{
				map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/jpeg;base64,/9j/"}},
				map[string]any{"type": "text", "text": "what is this?"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := newModelServer(t, streamChunks(chunk(`{"content":"ok"}`, "stop")))
			req := llm.Request{Messages: []llm.Message{tt.msg}}
			if _, _, err := collect(t, t.Context(), llm.NewOpenAI(testConfig(ms, &fakeSleeper{})), req); err != nil {
				t.Fatal(err)
			}
			var body struct {
				Messages []map[string]any `json:"messages"`
			}
			if err := json.Unmarshal([]byte(ms.requests()[0]), &body); err != nil {
				t.Fatal(err)
			}
			if len(body.Messages) != 1 {
				t.Fatalf("messages = %v", body.Messages)
			}
			if got := body.Messages[0]["content"]; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("content = %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestImageDataURL(t *testing.T) {
	if got, want := (llm.Image{MimeType: "image/webp", Data: "UklG"}).DataURL(), "data:image/webp;base64,UklG"; got != want {
		t.Errorf("DataURL = %q, want %q", got, want)
	}
}
