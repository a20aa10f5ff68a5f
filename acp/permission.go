package acp

// RequestPermissionRequest is the params of a session/request_permission:
// the call to approve, described as its card is (Status normally empty),
// and the options offered.
type RequestPermissionRequest struct {
	SessionID string
	ToolCall  ToolCall
	Options   []PermissionOption
	Meta      map[string]any
}

// PermissionOption is one answer the user can give.
type PermissionOption struct {
	OptionID string               `json:"optionId"`
	Name     string               `json:"name"`
	Kind     PermissionOptionKind `json:"kind"`
	Meta     map[string]any       `json:"_meta,omitempty"`
}

// PermissionOptionKind tells the client how to show an option.
type PermissionOptionKind string

// The permission option kinds of ACP v1.
const (
	PermissionOptionKindAllowOnce    PermissionOptionKind = "allow_once"
	PermissionOptionKindAllowAlways  PermissionOptionKind = "allow_always"
	PermissionOptionKindRejectOnce   PermissionOptionKind = "reject_once"
	PermissionOptionKindRejectAlways PermissionOptionKind = "reject_always"
)

type requestPermissionWire struct {
	SessionID string             `json:"sessionId"`
	ToolCall  toolCallBodyWire   `json:"toolCall"`
	Options   []PermissionOption `json:"options"`
	Meta      map[string]any     `json:"_meta,omitempty"`
}

// MarshalJSON encodes the request in one pass of encoding/json, without
// HTML escaping; a nil union value in the tool call is an error wrapping
// ErrMissingVariant.
func (r RequestPermissionRequest) MarshalJSON() ([]byte, error) {
	call, err := r.ToolCall.bodyWire()
	if err != nil {
		return nil, err
	}
	options := r.Options
	if options == nil {
		options = []PermissionOption{}
	}
	return marshalJSON(requestPermissionWire{r.SessionID, call, options, r.Meta})
}
