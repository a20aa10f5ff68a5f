package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// ElicitationForm is the params of an elicitation/create in form mode: a
// form the client shows the user, scoped to a session and, when
// ToolCallID is set, to one of its tool calls. Send it only to a client
// that advertised clientCapabilities.elicitation.form
// (InitializeRequest.ElicitationForm).
type ElicitationForm struct {
	SessionID  string
	ToolCallID string
	// Message says what input is needed; required.
	Message string
	// Fields are the form's fields, in the order the user sees them; each
	// Name is unique.
	Fields []ElicitationField
	Meta   map[string]any
}

// ElicitationField is one field of a form: free text, a single choice
// among Choices when they are set, or several of them with Multiple.
type ElicitationField struct {
	// Name is the field's key in the form and in the answer's content.
	Name        string
	Title       string
	Description string
	Choices     []string
	Multiple    bool
	// Required asks the client to refuse the form without a value here.
	Required bool
}

// ElicitationAction is how the user answered a form.
type ElicitationAction string

// The actions of schema 1.25; a client may send others (reserved for
// extensions and future versions), which an agent must not take for
// these.
const (
	ElicitationAccept  ElicitationAction = "accept"
	ElicitationDecline ElicitationAction = "decline"
	ElicitationCancel  ElicitationAction = "cancel"
)

// ElicitationResponse is the client's answer to an elicitation/create.
type ElicitationResponse struct {
	Action ElicitationAction
	// content holds the accepted form's values by field name.
	content map[string]json.RawMessage
}

// Values returns what the user entered in the field name of an accepted
// form: a text or a single choice as one value, a multi-select's choices
// in their order. ok is false when the field has no value (absent, null,
// or not a string or a list of strings).
func (r ElicitationResponse) Values(name string) (values []string, ok bool) {
	raw, found := r.content[name]
	if !found {
		return nil, false
	}
	var one string
	if json.Unmarshal(raw, &one) == nil && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return []string{one}, true
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil && many != nil {
		return many, true
	}
	return nil, false
}

// CreateElicitation shows a form to the user and returns the answer. The
// answer's action is the client's: accept (with content), decline,
// cancel, or another one a newer client may send. A request whose ctx
// ends is withdrawn ($/cancel_request) and returns ctx.Err() wrapped.
func (c *Conn) CreateElicitation(ctx context.Context, req ElicitationForm) (ElicitationResponse, error) {
	const method = ClientMethodElicitationCreate
	raw, err := req.MarshalJSON()
	if err != nil {
		return ElicitationResponse{}, fmt.Errorf("acp: %s: %w", method, err)
	}
	answer, err := c.call(ctx, method, json.RawMessage(raw))
	if err != nil {
		return ElicitationResponse{}, err
	}
	var wire struct {
		Action  ElicitationAction          `json:"action"`
		Content map[string]json.RawMessage `json:"content"`
	}
	if err := decodeAnswer(method, answer, &wire, "action"); err != nil {
		return ElicitationResponse{}, err
	}
	if wire.Action == "" {
		return ElicitationResponse{}, fmt.Errorf("%w: %s: an empty action", ErrInvalidAnswer, method)
	}
	return ElicitationResponse{Action: wire.Action, content: wire.Content}, nil
}

type elicitationFormWire struct {
	Mode            string                `json:"mode"`
	SessionID       string                `json:"sessionId"`
	ToolCallID      string                `json:"toolCallId,omitempty"`
	Message         string                `json:"message"`
	RequestedSchema elicitationSchemaWire `json:"requestedSchema"`
	Meta            map[string]any        `json:"_meta,omitempty"`
}

type elicitationSchemaWire struct {
	Type       string            `json:"type"`
	Properties elicitationFields `json:"properties"`
	Required   []string          `json:"required,omitempty"`
}

// elicitationFields encodes as the schema's properties object, its
// members in the fields' order (clients lay the form out in it).
type elicitationFields []ElicitationField

type elicitationPropertyWire struct {
	Type        string                `json:"type"`
	Title       string                `json:"title,omitempty"`
	Description string                `json:"description,omitempty"`
	Enum        []string              `json:"enum,omitempty"`
	Items       *elicitationItemsWire `json:"items,omitempty"`
}

type elicitationItemsWire struct {
	Type string   `json:"type"`
	Enum []string `json:"enum"`
}

// errBadForm is wrapped by the error of a form that cannot be sent.
var errBadForm = errors.New("the form cannot be sent")

// MarshalJSON encodes the request; a form without a session, a message or
// fields, with a nameless or repeated field, or with Multiple but no
// Choices is an error and nothing is sent.
func (r ElicitationForm) MarshalJSON() ([]byte, error) {
	switch {
	case r.SessionID == "":
		return nil, fmt.Errorf("%w: no session", errBadForm)
	case r.Message == "":
		return nil, fmt.Errorf("%w: no message", errBadForm)
	case len(r.Fields) == 0:
		return nil, fmt.Errorf("%w: no fields", errBadForm)
	}
	var required []string
	seen := map[string]bool{}
	for _, f := range r.Fields {
		switch {
		case f.Name == "":
			return nil, fmt.Errorf("%w: a field without a name", errBadForm)
		case seen[f.Name]:
			return nil, fmt.Errorf("%w: two fields named %q", errBadForm, f.Name)
		case f.Multiple && len(f.Choices) == 0:
			return nil, fmt.Errorf("%w: field %q: a multi-select without choices", errBadForm, f.Name)
		}
		seen[f.Name] = true
		if f.Required {
			required = append(required, f.Name)
		}
	}
	return marshalJSON(elicitationFormWire{
		Mode: "form", SessionID: r.SessionID, ToolCallID: r.ToolCallID, Message: r.Message,
		RequestedSchema: elicitationSchemaWire{Type: "object", Properties: r.Fields, Required: required},
		Meta:            r.Meta,
	})
}

// MarshalJSON encodes the fields as one object, in order.
func (fs elicitationFields) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			buf.WriteByte(',')
		}
		name, err := marshalJSON(f.Name)
		if err != nil {
			return nil, err
		}
		prop, err := marshalJSON(f.wire())
		if err != nil {
			return nil, err
		}
		buf.Write(name)
		buf.WriteByte(':')
		buf.Write(prop)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// wire is the field's property schema.
func (f ElicitationField) wire() elicitationPropertyWire {
	p := elicitationPropertyWire{Type: "string", Title: f.Title, Description: f.Description}
	switch {
	case f.Multiple:
		p.Type = "array"
		p.Items = &elicitationItemsWire{Type: "string", Enum: f.Choices}
	case len(f.Choices) > 0:
		p.Enum = f.Choices
	}
	return p
}
