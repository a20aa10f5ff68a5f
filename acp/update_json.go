package acp

// Each Update encodes on its own as the "update" member of a session/update
// holds it (discriminator first, fields in declaration order, no HTML
// escaping); a nil union value inside it is an error wrapping
// ErrMissingVariant.

// MarshalJSON implements json.Marshaler.
func (c AgentMessageChunk) MarshalJSON() ([]byte, error) { return marshalUpdate(c) }

// MarshalJSON implements json.Marshaler.
func (c AgentThoughtChunk) MarshalJSON() ([]byte, error) { return marshalUpdate(c) }

// MarshalJSON implements json.Marshaler.
func (c UserMessageChunk) MarshalJSON() ([]byte, error) { return marshalUpdate(c) }

// MarshalJSON implements json.Marshaler.
func (c ToolCall) MarshalJSON() ([]byte, error) { return marshalUpdate(c) }

// MarshalJSON implements json.Marshaler.
func (u ToolCallUpdate) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }

// MarshalJSON implements json.Marshaler.
func (p Plan) MarshalJSON() ([]byte, error) { return marshalUpdate(p) }

// MarshalJSON implements json.Marshaler.
func (u AvailableCommandsUpdate) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }

// MarshalJSON implements json.Marshaler.
func (u CurrentModeUpdate) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }

// MarshalJSON implements json.Marshaler.
func (u ConfigOptionUpdate) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }

// MarshalJSON implements json.Marshaler.
func (u SessionInfoUpdate) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }

// MarshalJSON implements json.Marshaler.
func (u UsageUpdate) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }
