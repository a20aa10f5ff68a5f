package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Decoding is the client's side of the vocabulary: what an ACP client
// reads of the messages an agent sends, back into the same types. Every
// union is decoded by its discriminator into its variant; an unknown
// discriminator, a missing union value or a member of the wrong JSON type
// is an error naming what it was reading, never a zero value. Decoding
// what MarshalJSON wrote gives back the value that was encoded (nil and
// empty lists aside, as the wire does not tell them apart).

// UnmarshalJSON decodes the params of a session/update.
func (n *SessionNotification) UnmarshalJSON(data []byte) error {
	var w struct {
		SessionID string          `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
		Meta      map[string]any  `json:"_meta"`
	}
	if err := decodeStrict(data, &w, "session notification"); err != nil {
		return err
	}
	u, err := decodeUpdate(w.Update)
	if err != nil {
		return err
	}
	*n = SessionNotification{SessionID: w.SessionID, Update: u, Meta: w.Meta}
	return nil
}

// UnmarshalJSON decodes the params of a session/request_permission.
func (r *RequestPermissionRequest) UnmarshalJSON(data []byte) error {
	var w struct {
		SessionID string             `json:"sessionId"`
		ToolCall  toolCallDecoded    `json:"toolCall"`
		Options   []PermissionOption `json:"options"`
		Meta      map[string]any     `json:"_meta"`
	}
	if err := decodeStrict(data, &w, "permission request"); err != nil {
		return err
	}
	call, err := w.ToolCall.toolCall()
	if err != nil {
		return fmt.Errorf("acp: permission request: %w", err)
	}
	*r = RequestPermissionRequest{SessionID: w.SessionID, ToolCall: call, Options: w.Options, Meta: w.Meta}
	return nil
}

// UnmarshalJSON decodes the result of session/new.
func (r *NewSessionResponse) UnmarshalJSON(data []byte) error {
	var w struct {
		SessionID     string             `json:"sessionId"`
		Modes         *SessionModeState  `json:"modes"`
		Models        *SessionModelState `json:"models"`
		ConfigOptions []json.RawMessage  `json:"configOptions"`
		Meta          map[string]any     `json:"_meta"`
	}
	if err := decodeStrict(data, &w, "session/new result"); err != nil {
		return err
	}
	options, err := decodeEach(w.ConfigOptions, decodeConfigOption)
	if err != nil {
		return err
	}
	*r = NewSessionResponse{SessionID: w.SessionID, SessionSetup: SessionSetup{Modes: w.Modes, Models: w.Models, ConfigOptions: options, Meta: w.Meta}}
	return nil
}

// decodeUpdate decodes the update member of a session/update by its
// sessionUpdate discriminator.
func decodeUpdate(data json.RawMessage) (Update, error) {
	kind, what, err := discriminator(data, "sessionUpdate", "session update")
	if err != nil {
		return nil, err
	}
	switch kind {
	case "agent_message_chunk", "agent_thought_chunk", "user_message_chunk":
		w, block, err := decodeBlockHolder(data, what)
		if err != nil {
			return nil, err
		}
		c := ContentChunk{Content: block, MessageID: w.MessageID, Meta: w.Meta}
		switch kind {
		case "agent_message_chunk":
			return AgentMessageChunk(c), nil
		case "agent_thought_chunk":
			return AgentThoughtChunk(c), nil
		default:
			return UserMessageChunk(c), nil
		}
	case "tool_call":
		var w toolCallDecoded
		if err := decodeStrict(data, &w, what); err != nil {
			return nil, err
		}
		c, err := w.toolCall()
		if err != nil {
			return nil, fmt.Errorf("acp: %s: %w", what, err)
		}
		return c, nil
	case "tool_call_update":
		var w struct {
			toolCallDecoded
			Meta *ToolCallUpdateMeta `json:"_meta"`
		}
		if err := decodeStrict(data, &w, what); err != nil {
			return nil, err
		}
		content, err := decodeEach(w.Content, decodeToolContent)
		if err != nil {
			return nil, fmt.Errorf("acp: %s: %w", what, err)
		}
		return ToolCallUpdate{
			ToolCallID: w.ToolCallID, Status: w.Status, Content: content, Title: w.Title, Kind: w.Kind, Name: w.Name,
			Locations: w.Locations, RawInput: w.RawInput, RawOutput: w.RawOutput, Meta: w.Meta,
		}, nil
	case "plan":
		var w planWire
		err := decodeStrict(data, &w, what)
		return Plan{Entries: w.Entries, Meta: w.Meta}, err
	case "available_commands_update":
		var w availableCommandsWire
		err := decodeStrict(data, &w, what)
		return AvailableCommandsUpdate{AvailableCommands: w.AvailableCommands, Meta: w.Meta}, err
	case "current_mode_update":
		var w currentModeWire
		err := decodeStrict(data, &w, what)
		return CurrentModeUpdate{CurrentModeID: w.CurrentModeID, Meta: w.Meta}, err
	case "config_option_update":
		var w struct {
			ConfigOptions []json.RawMessage `json:"configOptions"`
			Meta          map[string]any    `json:"_meta"`
		}
		if err := decodeStrict(data, &w, what); err != nil {
			return nil, err
		}
		options, err := decodeEach(w.ConfigOptions, decodeConfigOption)
		return ConfigOptionUpdate{ConfigOptions: options, Meta: w.Meta}, err
	case "session_info_update":
		var w sessionInfoWire
		err := decodeStrict(data, &w, what)
		return SessionInfoUpdate{Title: w.Title, UpdatedAt: w.UpdatedAt, Meta: w.Meta}, err
	case "usage_update":
		var w usageWire
		err := decodeStrict(data, &w, what)
		return UsageUpdate{Used: w.Used, Size: w.Size, Cost: w.Cost, Meta: w.Meta}, err
	default:
		return nil, fmt.Errorf("acp: unknown session update %q", kind)
	}
}

// toolCallDecoded is a tool call's members as they arrive, in a tool_call
// update or a permission request.
type toolCallDecoded struct {
	ToolCallID string             `json:"toolCallId"`
	Title      string             `json:"title"`
	Kind       ToolKind           `json:"kind"`
	Status     ToolCallStatus     `json:"status"`
	Name       string             `json:"name"`
	RawInput   json.RawMessage    `json:"rawInput"`
	RawOutput  json.RawMessage    `json:"rawOutput"`
	Locations  []ToolCallLocation `json:"locations"`
	Content    []json.RawMessage  `json:"content"`
	Meta       *ToolCallMeta      `json:"_meta"`
}

func (w toolCallDecoded) toolCall() (ToolCall, error) {
	content, err := decodeEach(w.Content, decodeToolContent)
	if err != nil {
		return ToolCall{}, err
	}
	return ToolCall{
		ToolCallID: w.ToolCallID, Title: w.Title, Kind: w.Kind, Status: w.Status, Name: w.Name,
		RawInput: w.RawInput, RawOutput: w.RawOutput, Locations: w.Locations, Content: content, Meta: w.Meta,
	}, nil
}

// decodeToolContent decodes one item of a tool call's content by its type.
func decodeToolContent(data json.RawMessage) (ToolCallContent, error) {
	kind, what, err := discriminator(data, "type", "tool call content")
	if err != nil {
		return nil, err
	}
	switch kind {
	case "content":
		w, block, err := decodeBlockHolder(data, what)
		if err != nil {
			return nil, err
		}
		return ContentItem{Content: block, Meta: w.Meta}, nil
	case "diff":
		var w diffWire
		err := decodeStrict(data, &w, what)
		return Diff{Path: w.Path, OldText: w.OldText, NewText: w.NewText, Meta: w.Meta}, err
	case "terminal":
		var w terminalWire
		err := decodeStrict(data, &w, what)
		return Terminal{TerminalID: w.TerminalID, Meta: w.Meta}, err
	default:
		return nil, fmt.Errorf("acp: unknown tool call content %q", kind)
	}
}

// blockHolder is an object holding a content block: a message chunk, or
// a content item of a tool call card (which has no message id).
type blockHolder struct {
	Content   json.RawMessage `json:"content"`
	MessageID string          `json:"messageId"`
	Meta      map[string]any  `json:"_meta"`
}

// decodeBlockHolder decodes data, what, as a blockHolder and its block.
func decodeBlockHolder(data json.RawMessage, what string) (blockHolder, ContentBlock, error) {
	var w blockHolder
	if err := decodeStrict(data, &w, what); err != nil {
		return w, nil, err
	}
	block, err := decodeContentBlock(w.Content)
	if err != nil {
		return w, nil, fmt.Errorf("acp: %s: %w", what, err)
	}
	return w, block, nil
}

// decodeContentBlock decodes a content block by its type.
func decodeContentBlock(data json.RawMessage) (ContentBlock, error) {
	kind, what, err := discriminator(data, "type", "content block")
	if err != nil {
		return nil, err
	}
	switch kind {
	case "text":
		var w textContentWire
		err := decodeStrict(data, &w, what)
		return TextContent{Text: w.Text, Annotations: w.Annotations, Meta: w.Meta}, err
	case "image":
		var w imageContentWire
		err := decodeStrict(data, &w, what)
		return ImageContent{Data: w.Data, MimeType: w.MimeType, URI: w.URI, Annotations: w.Annotations, Meta: w.Meta}, err
	case "audio":
		var w audioContentWire
		err := decodeStrict(data, &w, what)
		return AudioContent{Data: w.Data, MimeType: w.MimeType, Annotations: w.Annotations, Meta: w.Meta}, err
	case "resource_link":
		var w resourceLinkWire
		err := decodeStrict(data, &w, what)
		return ResourceLink{
			Name: w.Name, URI: w.URI, Title: w.Title, Description: w.Description, MimeType: w.MimeType,
			Size: w.Size, Annotations: w.Annotations, Meta: w.Meta,
		}, err
	case "resource":
		var w struct {
			Resource    json.RawMessage `json:"resource"`
			Annotations *Annotations    `json:"annotations"`
			Meta        map[string]any  `json:"_meta"`
		}
		if err := decodeStrict(data, &w, what); err != nil {
			return nil, err
		}
		res, err := decodeResourceContents(w.Resource)
		if err != nil {
			return nil, err
		}
		return EmbeddedResource{Resource: res, Annotations: w.Annotations, Meta: w.Meta}, nil
	default:
		return nil, fmt.Errorf("acp: unknown content block %q", kind)
	}
}

// decodeResourceContents decodes an embedded resource's contents: a blob
// when it has a blob member, text otherwise.
func decodeResourceContents(data json.RawMessage) (ResourceContents, error) {
	var probe struct {
		Blob *string `json:"blob"`
	}
	if err := decodeStrict(data, &probe, "resource contents"); err != nil {
		return nil, err
	}
	if probe.Blob != nil {
		var b BlobResourceContents
		return b, decodeStrict(data, &b, "blob resource contents")
	}
	var t TextResourceContents
	return t, decodeStrict(data, &t, "text resource contents")
}

// decodeConfigOption decodes a session config option by its type.
func decodeConfigOption(data json.RawMessage) (SessionConfigOption, error) {
	kind, what, err := discriminator(data, "type", "config option")
	if err != nil {
		return nil, err
	}
	switch kind {
	case "select":
		var w struct {
			selectConfigOptionWire
			Options []json.RawMessage `json:"options"`
		}
		if err := decodeStrict(data, &w, what); err != nil {
			return nil, err
		}
		o := SelectConfigOption{
			ID: w.ID, Name: w.Name, Description: w.Description, Category: w.Category, CurrentValue: w.CurrentValue, Meta: w.Meta,
		}
		// The values come grouped when they are objects with a group.
		grouped := len(w.Options) > 0 && hasMember(w.Options[0], "group")
		o.Options, o.Groups = []ConfigSelectOption{}, nil
		for _, raw := range w.Options {
			if grouped {
				var g ConfigSelectGroup
				if err := decodeStrict(raw, &g, what+" group"); err != nil {
					return nil, err
				}
				o.Groups = append(o.Groups, g)
				continue
			}
			var v ConfigSelectOption
			if err := decodeStrict(raw, &v, what+" value"); err != nil {
				return nil, err
			}
			o.Options = append(o.Options, v)
		}
		if grouped {
			o.Options = nil
		}
		return o, nil
	case "boolean":
		var w booleanConfigOptionWire
		err := decodeStrict(data, &w, what)
		return BooleanConfigOption{
			ID: w.ID, Name: w.Name, Description: w.Description, Category: w.Category, CurrentValue: w.CurrentValue, Meta: w.Meta,
		}, err
	default:
		return nil, fmt.Errorf("acp: unknown config option %q", kind)
	}
}

// decodeEach decodes every item of a list with decode, keeping nil nil.
func decodeEach[T any](items []json.RawMessage, decode func(json.RawMessage) (T, error)) ([]T, error) {
	if items == nil {
		return nil, nil
	}
	out := make([]T, len(items))
	for i, raw := range items {
		v, err := decode(raw)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// discriminator returns the string member name of the object data, the
// discriminator of the union called union, and the variant's name for
// errors ("tool call content diff").
func discriminator(data json.RawMessage, name, union string) (kind, what string, err error) {
	var members map[string]json.RawMessage
	if err := decodeStrict(data, &members, union); err != nil {
		return "", "", err
	}
	raw, ok := members[name]
	if !ok {
		return "", "", fmt.Errorf("acp: %s without %q", union, name)
	}
	if err := json.Unmarshal(raw, &kind); err != nil {
		return "", "", fmt.Errorf("acp: %s: %q is not a string: %s", union, name, raw)
	}
	return kind, union + " " + kind, nil
}

// hasMember reports whether the object data has a member name.
func hasMember(data json.RawMessage, name string) bool {
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil {
		return false
	}
	_, ok := members[name]
	return ok
}

// decodeStrict decodes the JSON object data into v; null, a missing value
// and anything but an object are errors naming what.
func decodeStrict(data []byte, v any, what string) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return fmt.Errorf("acp: %s is not an object: %.100s", what, trimmed)
	}
	if err := json.Unmarshal(trimmed, v); err != nil {
		return fmt.Errorf("acp: %s: %w", what, err)
	}
	return nil
}
