package acp

import "encoding/json"

// NewSessionResponse answers session/new: the new session's id and the
// settings the user can change.
type NewSessionResponse struct {
	SessionID string
	SessionSetup
}

// SessionSetup is what session/new, session/load and session/resume tell
// the client about a session's settings: its config options and, for
// clients that predate them, its modes and its models. Any may be empty.
type SessionSetup struct {
	Modes *SessionModeState
	// Models is the older, unstable form of the model choice (the
	// "models" member, changed with session/set_model), which agent-shell
	// and the AI SDK provider read; ACP's schema has since dropped it for
	// the config option of category "model".
	Models        *SessionModelState
	ConfigOptions []SessionConfigOption
	Meta          map[string]any
}

// SessionModelState is the session's current model and the models it
// offers (the "models" member of a session setup).
type SessionModelState struct {
	CurrentModelID  string      `json:"currentModelId"`
	AvailableModels []ModelInfo `json:"availableModels"`
}

// ModelInfo is one model a session can use.
type ModelInfo struct {
	ModelID     string `json:"modelId"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// SetSessionModelRequest is the params of session/set_model.
type SetSessionModelRequest struct {
	SessionID string         `json:"sessionId"`
	ModelID   string         `json:"modelId"`
	Meta      map[string]any `json:"_meta,omitempty"`
}

// SetSessionModelResponse is the (empty) result of session/set_model.
type SetSessionModelResponse struct {
	Meta map[string]any `json:"_meta,omitempty"`
}

// SessionModeState is the session's current mode and the modes it offers.
type SessionModeState struct {
	CurrentModeID  string        `json:"currentModeId"`
	AvailableModes []SessionMode `json:"availableModes"`
}

// SessionMode is one mode the session can be in.
type SessionMode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type sessionSetupWire struct {
	SessionID     string             `json:"sessionId,omitempty"`
	Modes         *SessionModeState  `json:"modes,omitempty"`
	Models        *SessionModelState `json:"models,omitempty"`
	ConfigOptions []any              `json:"configOptions,omitempty"`
	Meta          map[string]any     `json:"_meta,omitempty"`
}

func (s SessionSetup) wire(sessionID string) (sessionSetupWire, error) {
	options, err := configOptionsWire(s.ConfigOptions)
	if err != nil {
		return sessionSetupWire{}, err
	}
	if len(options) == 0 {
		options = nil
	}
	return sessionSetupWire{sessionID, s.Modes, s.Models, options, s.Meta}, nil
}

// MarshalJSON encodes the setup as the result of session/load or
// session/resume; a nil config option is an error.
func (s SessionSetup) MarshalJSON() ([]byte, error) {
	w, err := s.wire("")
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

// MarshalJSON encodes the result of session/new; a nil config option is
// an error.
func (r NewSessionResponse) MarshalJSON() ([]byte, error) {
	w, err := r.SessionSetup.wire(r.SessionID)
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

// ConfigOptionsResponse answers session/set_config_option with the whole
// list of the session's options, as they are after the change.
type ConfigOptionsResponse struct {
	ConfigOptions []SessionConfigOption
}

// MarshalJSON encodes the response; a nil config option is an error.
func (r ConfigOptionsResponse) MarshalJSON() ([]byte, error) {
	options, err := configOptionsWire(r.ConfigOptions)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		ConfigOptions []any `json:"configOptions"`
	}{options})
}

// configOptionsWire encodes each option with its own discriminator.
func configOptionsWire(options []SessionConfigOption) ([]any, error) {
	out := make([]any, len(options))
	for i, o := range options {
		if o == nil {
			return nil, errNilVariant("config option")
		}
		out[i] = o.configOptionWire()
	}
	return out, nil
}

// ListSessionsResponse answers session/list: one page of sessions and,
// when more follow, the cursor of the next page.
type ListSessionsResponse struct {
	Sessions   []SessionInfo `json:"sessions"`
	NextCursor string        `json:"nextCursor,omitempty"`
}

// SessionInfo describes a stored session in session/list.
type SessionInfo struct {
	SessionID             string   `json:"sessionId"`
	Cwd                   string   `json:"cwd"`
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
	Title                 string   `json:"title,omitempty"`
	// UpdatedAt is RFC 3339.
	UpdatedAt string `json:"updatedAt,omitempty"`
}

// MarshalJSON encodes the page; a nil Sessions is sent as [].
func (r ListSessionsResponse) MarshalJSON() ([]byte, error) {
	type plain ListSessionsResponse
	if r.Sessions == nil {
		r.Sessions = []SessionInfo{}
	}
	return json.Marshal(plain(r))
}
