package acp

import (
	"encoding/json"

	acpsdk "github.com/coder/acp-go-sdk"
)

// decodePrompt decodes session/prompt params into the SDK type, checking
// what decodeParams checks, in one pass over the params: the required
// members are found by decoding them into pointers, and text blocks are
// decoded directly (see promptBlock). A prompt of megabytes (a pasted
// log, a file) costs its decoded text and little else.
func decodePrompt(method string, params []byte) (acpsdk.PromptRequest, error) {
	var wire struct {
		acpsdk.PromptRequest
		// These shadow the embedded fields of the same JSON names.
		SessionID *acpsdk.SessionId `json:"sessionId"`
		Prompt    *[]promptBlock    `json:"prompt"`
	}
	if err := decodeObject(params, &wire); err != nil {
		return acpsdk.PromptRequest{}, InvalidParams("invalid params for %s: %v", method, err)
	}
	switch {
	case wire.SessionID == nil:
		return acpsdk.PromptRequest{}, InvalidParams("invalid params for %s: missing required field %q", method, "sessionId")
	case wire.Prompt == nil:
		return acpsdk.PromptRequest{}, InvalidParams("invalid params for %s: missing required field %q", method, "prompt")
	}
	req := wire.PromptRequest
	req.SessionId = *wire.SessionID
	req.Prompt = make([]acpsdk.ContentBlock, len(*wire.Prompt))
	for i, b := range *wire.Prompt {
		req.Prompt[i] = b.ContentBlock
	}
	if err := req.Validate(); err != nil {
		return acpsdk.PromptRequest{}, InvalidParams("invalid params for %s: %v", method, err)
	}
	return req, nil
}

// promptBlock is an acpsdk.ContentBlock that decodes a text block directly:
// the SDK's decoder first copies every member of a block and then decodes
// it again, doubling the memory and time of a large text.
type promptBlock struct {
	acpsdk.ContentBlock
}

// UnmarshalJSON implements json.Unmarshaler: a block that decodes as a
// text block (type "text") is one; anything else is left to the SDK,
// errors included.
func (p *promptBlock) UnmarshalJSON(b []byte) error {
	var text acpsdk.ContentBlockText
	if json.Unmarshal(b, &text) == nil && text.Type == "text" {
		p.ContentBlock = acpsdk.ContentBlock{Text: &text}
		return nil
	}
	return p.ContentBlock.UnmarshalJSON(b)
}
