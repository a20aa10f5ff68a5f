package acp

import (
	"encoding/json"
	"fmt"

	acpsdk "github.com/coder/acp-go-sdk"
)

// SystemPrompt is a client's system-level instructions for a session
// (systemPrompt of session/new, load and resume; unstable in schema
// 1.25): added to the agent's own (SystemPromptAppend) or in place of
// them (SystemPromptOverride). Clients send it only to an agent that
// advertises sessionCapabilities.systemPrompt.
type SystemPrompt struct {
	Mode    string          `json:"mode"`
	Content []PromptContent `json:"content"`
}

// The system prompt modes of schema 1.25 (unstable).
const (
	SystemPromptAppend   = "append"
	SystemPromptOverride = "override"
)

// NewSessionRequest is the params of session/new: what the SDK decodes,
// and the client's system prompt, which it does not.
type NewSessionRequest struct {
	acpsdk.NewSessionRequest
	SystemPrompt *SystemPrompt `json:"-"`
}

// LoadSessionRequest is the params of session/load (see NewSessionRequest).
type LoadSessionRequest struct {
	acpsdk.LoadSessionRequest
	SystemPrompt *SystemPrompt `json:"-"`
}

// ResumeSessionRequest is the params of session/resume (see
// NewSessionRequest).
type ResumeSessionRequest struct {
	acpsdk.ResumeSessionRequest
	SystemPrompt *SystemPrompt `json:"-"`
}

// UnmarshalJSON decodes the SDK's fields, then systemPrompt.
func (r *NewSessionRequest) UnmarshalJSON(data []byte) error {
	return decodeWithSystemPrompt(data, &r.NewSessionRequest, &r.SystemPrompt)
}

// UnmarshalJSON decodes the SDK's fields, then systemPrompt.
func (r *LoadSessionRequest) UnmarshalJSON(data []byte) error {
	return decodeWithSystemPrompt(data, &r.LoadSessionRequest, &r.SystemPrompt)
}

// UnmarshalJSON decodes the SDK's fields, then systemPrompt.
func (r *ResumeSessionRequest) UnmarshalJSON(data []byte) error {
	return decodeWithSystemPrompt(data, &r.ResumeSessionRequest, &r.SystemPrompt)
}

// decodeWithSystemPrompt decodes data into sdk and its systemPrompt
// member into prompt (nil when absent or null).
func decodeWithSystemPrompt(data []byte, sdk any, prompt **SystemPrompt) error {
	if err := json.Unmarshal(data, sdk); err != nil {
		return err
	}
	var probe struct {
		SystemPrompt *SystemPrompt `json:"systemPrompt"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return fmt.Errorf("systemPrompt: %w", err)
	}
	*prompt = probe.SystemPrompt
	return nil
}

// InitializeFields are the members of an initialize answer the SDK knows.
type InitializeFields = acpsdk.InitializeResponse

// InitializeResponse is the result of initialize: the SDK's, and whether
// the agent takes client system prompts (sessionCapabilities.systemPrompt,
// which the SDK's types do not have).
type InitializeResponse struct {
	InitializeFields
	// SystemPrompt advertises systemPrompt in both modes.
	SystemPrompt bool
}

// MarshalJSON encodes the SDK's answer with
// agentCapabilities.sessionCapabilities.systemPrompt added when set.
func (r InitializeResponse) MarshalJSON() ([]byte, error) {
	data, err := json.Marshal(r.InitializeFields)
	if err != nil || !r.SystemPrompt {
		return data, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, err
	}
	var caps map[string]json.RawMessage
	if err := json.Unmarshal(top["agentCapabilities"], &caps); err != nil || caps == nil {
		caps = map[string]json.RawMessage{}
	}
	var session map[string]json.RawMessage
	if err := json.Unmarshal(caps["sessionCapabilities"], &session); err != nil || session == nil {
		session = map[string]json.RawMessage{}
	}
	session["systemPrompt"] = json.RawMessage(`{"mode":{"override":{}}}`)
	if caps["sessionCapabilities"], err = json.Marshal(session); err != nil {
		return nil, err
	}
	if top["agentCapabilities"], err = json.Marshal(caps); err != nil {
		return nil, err
	}
	return json.Marshal(top)
}
