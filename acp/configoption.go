package acp

// ConfigOptionUpdate replaces the session's configuration options.
type ConfigOptionUpdate struct {
	ConfigOptions []SessionConfigOption
	Meta          map[string]any
}

// SessionConfigOption is one setting the user can change:
// SelectConfigOption or BooleanConfigOption. The set is closed; each
// writes its own "type" discriminator.
type SessionConfigOption interface {
	configOptionWire() any
}

// ConfigOptionCategory groups options in the client's UI: "mode",
// "model", "model_config", "thought_level" or another name.
type ConfigOptionCategory string

// SelectConfigOption picks one value among Options, or among the options
// of Groups when Groups is set.
type SelectConfigOption struct {
	ID           string
	Name         string
	Description  string
	Category     ConfigOptionCategory
	CurrentValue string
	Options      []ConfigSelectOption
	Groups       []ConfigSelectGroup
	Meta         map[string]any
}

// ConfigSelectOption is one value of a SelectConfigOption.
type ConfigSelectOption struct {
	Value       string         `json:"value"`
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Meta        map[string]any `json:"_meta,omitempty"`
}

// ConfigSelectGroup is a named group of values.
type ConfigSelectGroup struct {
	Group   string               `json:"group"`
	Name    string               `json:"name"`
	Options []ConfigSelectOption `json:"options"`
	Meta    map[string]any       `json:"_meta,omitempty"`
}

type selectConfigOptionWire struct {
	Type         string               `json:"type"`
	ID           string               `json:"id"`
	Name         string               `json:"name"`
	Description  string               `json:"description,omitempty"`
	Category     ConfigOptionCategory `json:"category,omitempty"`
	CurrentValue string               `json:"currentValue"`
	Options      any                  `json:"options"`
	Meta         map[string]any       `json:"_meta,omitempty"`
}

func (o SelectConfigOption) configOptionWire() any {
	var options any = o.Options
	switch {
	case o.Groups != nil:
		options = o.Groups
	case o.Options == nil:
		options = []ConfigSelectOption{}
	}
	return selectConfigOptionWire{"select", o.ID, o.Name, o.Description, o.Category, o.CurrentValue, options, o.Meta}
}

// BooleanConfigOption is an on/off setting.
type BooleanConfigOption struct {
	ID           string
	Name         string
	Description  string
	Category     ConfigOptionCategory
	CurrentValue bool
	Meta         map[string]any
}

type booleanConfigOptionWire struct {
	Type         string               `json:"type"`
	ID           string               `json:"id"`
	Name         string               `json:"name"`
	Description  string               `json:"description,omitempty"`
	Category     ConfigOptionCategory `json:"category,omitempty"`
	CurrentValue bool                 `json:"currentValue"`
	Meta         map[string]any       `json:"_meta,omitempty"`
}

func (o BooleanConfigOption) configOptionWire() any {
	return booleanConfigOptionWire{"boolean", o.ID, o.Name, o.Description, o.Category, o.CurrentValue, o.Meta}
}

type configOptionUpdateWire struct {
	SessionUpdate string         `json:"sessionUpdate"`
	ConfigOptions []any          `json:"configOptions"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

func (u ConfigOptionUpdate) wire() (any, error) {
	options, err := configOptionsWire(u.ConfigOptions)
	if err != nil {
		return nil, err
	}
	return configOptionUpdateWire{"config_option_update", options, u.Meta}, nil
}
