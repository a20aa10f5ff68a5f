package acp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"
)

// TestDecodePromptMatchesSDK checks decodePrompt decodes every prompt as
// the SDK's own decoder does (its fast path for text blocks included), and
// refuses what decodeParams refuses, with the same messages.
func TestDecodePromptMatchesSDK(t *testing.T) {
	valid := []string{
		`{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}`,
		`{"sessionId":"s1","prompt":[{"type":"text","text":"hi","annotations":{"priority":0.5},"_meta":{"k":[1]}}],"_meta":{"x":true},"messageId":"m1"}`,
		`{"sessionId":"s1","prompt":[{"type":"resource_link","name":"a","uri":"file:///a"},{"type":"text","text":"x"}]}`,
		`{"sessionId":"s1","prompt":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}`,
		`{"sessionId":"s1","prompt":[{"type":"hologram","data":"x"}]}`,
		`{"sessionId":"s1","prompt":[{"text":"no type"}]}`,
		`{"sessionId":"s1","prompt":[]}`,
		`{"sessionId":"","prompt":[]}`,
	}
	for _, params := range valid {
		got, err := decodePrompt("session/prompt", []byte(params))
		if err != nil {
			t.Errorf("decodePrompt(%s): %v", params, err)
			continue
		}
		var want acpsdk.PromptRequest
		if err := decodeParams("session/prompt", []byte(params), &want, "sessionId", "prompt"); err != nil {
			t.Fatalf("the SDK refused %s: %v", params, err)
		}
		if !reflect.DeepEqual(got, want) {
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(want)
			t.Errorf("decodePrompt(%s)\n = %s\nwant %s", params, gotJSON, wantJSON)
		}
	}
	invalid := []string{
		``, `null`, `[1]`, `"x"`, `{}`,
		`{"prompt":[]}`, `{"sessionId":"s1"}`, `{"sessionId":null,"prompt":[]}`, `{"sessionId":"s1","prompt":null}`,
		`{"sessionId":7,"prompt":[]}`, `{"sessionId":"s1","prompt":"hi"}`, `{"sessionId":"s1","prompt":[5]}`,
		`{"sessionId":"s1","prompt":[{"type":"text","text":5}]}`,
	}
	for _, params := range invalid {
		_, err := decodePrompt("session/prompt", []byte(params))
		var sdk acpsdk.PromptRequest
		want := decodeParams("session/prompt", []byte(params), &sdk, "sessionId", "prompt")
		if err == nil || want == nil {
			t.Errorf("params %s: decodePrompt error %v, SDK error %v; want both to refuse", params, err, want)
			continue
		}
		if code, _ := ErrorCode(err); code != -32602 || !strings.HasPrefix(err.Error(), "invalid params for session/prompt: ") {
			t.Errorf("params %s: %v, want -32602 naming the method", params, err)
		}
		if err.Error() != want.Error() {
			t.Errorf("params %s: %q, want the message the SDK path gives: %q", params, err, want)
		}
	}
}
