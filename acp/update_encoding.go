package acp

import (
	acpsdk "github.com/coder/acp-go-sdk"
)

// The SDK encodes its unions (SessionUpdate, ContentBlock, ToolCallContent)
// by marshalling each variant, decoding it into a map and marshalling the
// map again. That loses integers above 2^53 in rawInput, rawOutput and
// _meta (they pass through float64), drops _meta and annotations from
// content blocks, and costs three encodings per level. The types below
// mirror the SDK's variant structs field for field, in the same order, so
// session/update and session/request_permission are encoded in one pass by
// encoding/json: lossless, in struct field order, with the discriminator
// set. mirror_test.go checks the mirrors still match the SDK.

// sessionNotificationJSON is the wire form of acpsdk.SessionNotification.
type sessionNotificationJSON struct {
	Meta      map[string]any    `json:"_meta,omitempty"`
	SessionID acpsdk.SessionId  `json:"sessionId"`
	Update    sessionUpdateJSON `json:"update"`
}

// encodeSessionNotification encodes the params of a session/update.
func encodeSessionNotification(n acpsdk.SessionNotification) ([]byte, error) {
	if fast, ok := textChunkNotification(n); ok {
		return marshalJSON(fast)
	}
	return marshalJSON(sessionNotificationJSON{Meta: n.Meta, SessionID: n.SessionId, Update: sessionUpdateJSON(n.Update)})
}

// textChunkNotificationJSON is the wire form of the hottest update, a
// text chunk of the agent's message or thought, encoded in one reflection
// pass without nested Marshalers (each nested one costs an encoder and a
// re-compaction of its output).
type textChunkNotificationJSON struct {
	Meta      map[string]any   `json:"_meta,omitempty"`
	SessionID acpsdk.SessionId `json:"sessionId"`
	Update    textChunkJSON    `json:"update"`
}

// textChunkJSON is chunkJSON with a text block.
type textChunkJSON struct {
	Meta          map[string]any          `json:"_meta,omitempty"`
	Content       acpsdk.ContentBlockText `json:"content"`
	MessageID     *string                 `json:"messageId,omitempty"`
	SessionUpdate string                  `json:"sessionUpdate"`
}

// textChunkNotification returns the fast form of n when n holds only an
// agent message or thought chunk with a text block.
func textChunkNotification(n acpsdk.SessionNotification) (textChunkNotificationJSON, bool) {
	u := n.Update
	var chunk textChunkJSON
	switch {
	case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil:
		v := u.AgentMessageChunk
		chunk = textChunkJSON{v.Meta, *v.Content.Text, v.MessageId, "agent_message_chunk"}
	case u.AgentThoughtChunk != nil && u.AgentThoughtChunk.Content.Text != nil:
		v := u.AgentThoughtChunk
		chunk = textChunkJSON{v.Meta, *v.Content.Text, v.MessageId, "agent_thought_chunk"}
	default:
		return textChunkNotificationJSON{}, false
	}
	chunk.Content.Type = "text"
	return textChunkNotificationJSON{n.Meta, n.SessionId, chunk}, true
}

// sessionUpdateJSON encodes the variant of an acpsdk.SessionUpdate that is
// set, with "sessionUpdate" set to its discriminator whatever the caller
// left in the variant's SessionUpdate field.
type sessionUpdateJSON acpsdk.SessionUpdate

// MarshalJSON implements json.Marshaler.
func (u sessionUpdateJSON) MarshalJSON() ([]byte, error) {
	switch {
	case u.UserMessageChunk != nil:
		v := u.UserMessageChunk
		return marshalJSON(chunkJSON{v.Meta, contentBlockJSON(v.Content), v.MessageId, "user_message_chunk"})
	case u.AgentMessageChunk != nil:
		v := u.AgentMessageChunk
		return marshalJSON(chunkJSON{v.Meta, contentBlockJSON(v.Content), v.MessageId, "agent_message_chunk"})
	case u.AgentThoughtChunk != nil:
		v := u.AgentThoughtChunk
		return marshalJSON(chunkJSON{v.Meta, contentBlockJSON(v.Content), v.MessageId, "agent_thought_chunk"})
	case u.ToolCall != nil:
		v := u.ToolCall
		return marshalJSON(toolCallJSON{
			Meta: v.Meta, Content: toolCallContentsJSON(v.Content), Kind: v.Kind, Locations: v.Locations,
			RawInput: v.RawInput, RawOutput: v.RawOutput, SessionUpdate: "tool_call", Status: v.Status,
			Title: v.Title, ToolCallID: v.ToolCallId,
		})
	case u.ToolCallUpdate != nil:
		v := u.ToolCallUpdate
		return marshalJSON(toolCallUpdateJSON{
			Meta: v.Meta, Content: toolCallContentsJSON(v.Content), Kind: v.Kind, Locations: v.Locations,
			RawInput: v.RawInput, RawOutput: v.RawOutput, SessionUpdate: "tool_call_update", Status: v.Status,
			Title: v.Title, ToolCallID: v.ToolCallId,
		})
	case u.Plan != nil:
		v := *u.Plan
		v.SessionUpdate = "plan"
		return marshalJSON(v)
	case u.CurrentModeUpdate != nil:
		v := *u.CurrentModeUpdate
		v.SessionUpdate = "current_mode_update"
		return marshalJSON(v)
	case u.SessionInfoUpdate != nil:
		v := *u.SessionInfoUpdate
		v.SessionUpdate = "session_info_update"
		return marshalJSON(v)
	case u.UsageUpdate != nil:
		v := *u.UsageUpdate
		v.SessionUpdate = "usage_update"
		return marshalJSON(v)
	}
	// The remaining variants nest unions of their own; the SDK encodes them.
	return acpsdk.SessionUpdate(u).MarshalJSON()
}

// chunkJSON is the wire form of the three *_chunk session updates.
type chunkJSON struct {
	Meta          map[string]any   `json:"_meta,omitempty"`
	Content       contentBlockJSON `json:"content"`
	MessageID     *string          `json:"messageId,omitempty"`
	SessionUpdate string           `json:"sessionUpdate"`
}

// toolCallJSON is the wire form of acpsdk.SessionUpdateToolCall.
type toolCallJSON struct {
	Meta          map[string]any            `json:"_meta,omitempty"`
	Content       []toolCallContentJSON     `json:"content,omitempty"`
	Kind          acpsdk.ToolKind           `json:"kind,omitempty"`
	Locations     []acpsdk.ToolCallLocation `json:"locations,omitempty"`
	RawInput      any                       `json:"rawInput,omitempty"`
	RawOutput     any                       `json:"rawOutput,omitempty"`
	SessionUpdate string                    `json:"sessionUpdate"`
	Status        acpsdk.ToolCallStatus     `json:"status,omitempty"`
	Title         string                    `json:"title"`
	ToolCallID    acpsdk.ToolCallId         `json:"toolCallId"`
}

// toolCallUpdateJSON is the wire form of acpsdk.SessionToolCallUpdate.
type toolCallUpdateJSON struct {
	Meta          map[string]any            `json:"_meta,omitempty"`
	Content       []toolCallContentJSON     `json:"content,omitempty"`
	Kind          *acpsdk.ToolKind          `json:"kind,omitempty"`
	Locations     []acpsdk.ToolCallLocation `json:"locations,omitempty"`
	RawInput      any                       `json:"rawInput,omitempty"`
	RawOutput     any                       `json:"rawOutput,omitempty"`
	SessionUpdate string                    `json:"sessionUpdate"`
	Status        *acpsdk.ToolCallStatus    `json:"status,omitempty"`
	Title         *string                   `json:"title,omitempty"`
	ToolCallID    acpsdk.ToolCallId         `json:"toolCallId"`
}

// requestPermissionJSON is the wire form of acpsdk.RequestPermissionRequest.
type requestPermissionJSON struct {
	Meta      map[string]any            `json:"_meta,omitempty"`
	Options   []acpsdk.PermissionOption `json:"options"`
	SessionID acpsdk.SessionId          `json:"sessionId"`
	ToolCall  toolCallUpdateBodyJSON    `json:"toolCall"`
}

// toolCallUpdateBodyJSON is the wire form of acpsdk.ToolCallUpdate (the
// toolCall of a permission request).
type toolCallUpdateBodyJSON struct {
	Meta       map[string]any            `json:"_meta,omitempty"`
	Content    []toolCallContentJSON     `json:"content,omitempty"`
	Kind       *acpsdk.ToolKind          `json:"kind,omitempty"`
	Locations  []acpsdk.ToolCallLocation `json:"locations,omitempty"`
	RawInput   any                       `json:"rawInput,omitempty"`
	RawOutput  any                       `json:"rawOutput,omitempty"`
	Status     *acpsdk.ToolCallStatus    `json:"status,omitempty"`
	Title      *string                   `json:"title,omitempty"`
	ToolCallID acpsdk.ToolCallId         `json:"toolCallId"`
}

// encodeRequestPermission encodes the params of a
// session/request_permission.
func encodeRequestPermission(r acpsdk.RequestPermissionRequest) ([]byte, error) {
	t := r.ToolCall
	return marshalJSON(requestPermissionJSON{
		Meta: r.Meta, Options: r.Options, SessionID: r.SessionId,
		ToolCall: toolCallUpdateBodyJSON{
			Meta: t.Meta, Content: toolCallContentsJSON(t.Content), Kind: t.Kind, Locations: t.Locations,
			RawInput: t.RawInput, RawOutput: t.RawOutput, Status: t.Status, Title: t.Title, ToolCallID: t.ToolCallId,
		},
	})
}

// toolCallContentJSON encodes the variant of an acpsdk.ToolCallContent
// that is set.
type toolCallContentJSON acpsdk.ToolCallContent

// toolCallContentsJSON converts a content collection, keeping nil nil.
func toolCallContentsJSON(in []acpsdk.ToolCallContent) []toolCallContentJSON {
	if in == nil {
		return nil
	}
	out := make([]toolCallContentJSON, len(in))
	for i, c := range in {
		out[i] = toolCallContentJSON(c)
	}
	return out
}

// toolCallContentContentJSON is the wire form of
// acpsdk.ToolCallContentContent.
type toolCallContentContentJSON struct {
	Meta    map[string]any   `json:"_meta,omitempty"`
	Content contentBlockJSON `json:"content"`
	Type    string           `json:"type"`
}

// MarshalJSON implements json.Marshaler.
func (c toolCallContentJSON) MarshalJSON() ([]byte, error) {
	switch {
	case c.Content != nil:
		return marshalJSON(toolCallContentContentJSON{c.Content.Meta, contentBlockJSON(c.Content.Content), "content"})
	case c.Diff != nil:
		v := *c.Diff
		v.Type = "diff"
		return marshalJSON(v)
	case c.Terminal != nil:
		v := *c.Terminal
		v.Type = "terminal"
		return marshalJSON(v)
	}
	return acpsdk.ToolCallContent(c).MarshalJSON()
}

// contentBlockJSON encodes the variant of an acpsdk.ContentBlock that is
// set, keeping its _meta and annotations.
type contentBlockJSON acpsdk.ContentBlock

// MarshalJSON implements json.Marshaler.
func (b contentBlockJSON) MarshalJSON() ([]byte, error) {
	switch {
	case b.Text != nil:
		v := *b.Text
		v.Type = "text"
		return marshalJSON(v)
	case b.Image != nil:
		v := *b.Image
		v.Type = "image"
		return marshalJSON(v)
	case b.Audio != nil:
		v := *b.Audio
		v.Type = "audio"
		return marshalJSON(v)
	case b.ResourceLink != nil:
		v := *b.ResourceLink
		v.Type = "resource_link"
		return marshalJSON(v)
	}
	// resource nests the EmbeddedResourceResource union; the SDK encodes it.
	return acpsdk.ContentBlock(b).MarshalJSON()
}
