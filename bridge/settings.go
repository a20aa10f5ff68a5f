package bridge

import (
	"fmt"
	"slices"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/policy"
)

// ModelChoice is one model the editor's model picker offers.
type ModelChoice struct {
	// ID is what the session's settings hold; Name is what the picker
	// shows.
	ID, Name    string
	Description string
	// Efforts are the reasoning efforts the model takes, in the order
	// offered; empty when it takes none. DefaultEffort is the one a
	// session starts with ("" leaves it to the model).
	Efforts       []string
	DefaultEffort string
	// Images says whether the model takes images; nil when unknown (a
	// model the server listed). Sent in the option's _meta (see
	// imagesMeta), so a client can say so before a prompt carries one.
	Images *bool
}

// metaKey is the key of dsh-acp's own members in a _meta object.
const metaKey = "dsh-acp"

// imagesMeta is a model value's _meta: {"dsh-acp": {"images": bool}}
// when it is known whether the model takes images, else nil.
func imagesMeta(c ModelChoice) map[string]any {
	if c.Images == nil {
		return nil
	}
	return map[string]any{metaKey: map[string]any{"images": *c.Images}}
}

// The ids of the session's config options and the settings they change.
const (
	optionModel  = "model"
	optionMode   = "mode"
	optionEffort = "reasoning_effort"
)

// settingsMenu builds a session's config options from the models on
// offer.
type settingsMenu struct {
	models []ModelChoice
}

// model returns the choice for id; a model that is not on offer (one a
// stored session used, say) is offered as itself.
func (m settingsMenu) model(id string) ModelChoice {
	for _, c := range m.models {
		if c.ID == id {
			return c
		}
	}
	return ModelChoice{ID: id, Name: id}
}

// options returns the session's config options for s: the permission
// preset, the model when models are on offer, and the reasoning effort
// when the current model takes one.
func (m settingsMenu) options(s live.Settings) []acp.SessionConfigOption {
	presets := policy.Presets()
	modeValues := make([]acp.ConfigSelectOption, len(presets))
	for i, p := range presets {
		modeValues[i] = acp.ConfigSelectOption{Value: string(p), Name: presetName(p), Description: p.Description()}
	}
	out := []acp.SessionConfigOption{acp.SelectConfigOption{
		ID: optionMode, Name: "Permissions", Category: "mode",
		Description:  "What the agent may do without asking",
		CurrentValue: string(s.Preset), Options: modeValues,
	}}
	if models := m.offered(s.Model); len(models) > 0 {
		values := make([]acp.ConfigSelectOption, len(models))
		for i, c := range models {
			values[i] = acp.ConfigSelectOption{Value: c.ID, Name: c.Name, Description: c.Description, Meta: imagesMeta(c)}
		}
		out = append(out, acp.SelectConfigOption{
			ID: optionModel, Name: "Model", Category: "model",
			CurrentValue: s.Model, Options: values,
		})
	}
	if efforts := m.model(s.Model).Efforts; len(efforts) > 0 && s.Effort != "" {
		values := make([]acp.ConfigSelectOption, len(efforts))
		for i, e := range efforts {
			values[i] = acp.ConfigSelectOption{Value: e, Name: e}
		}
		out = append(out, acp.SelectConfigOption{
			ID: optionEffort, Name: "Reasoning effort", Category: "thought_level",
			CurrentValue: s.Effort, Options: values,
		})
	}
	return out
}

// offered returns the models a session whose model is current can
// choose: those on offer, and current itself when it is not (a stored
// session's); none when no model is on offer.
func (m settingsMenu) offered(current string) []ModelChoice {
	if len(m.models) == 0 {
		return nil
	}
	if current != "" && !slices.ContainsFunc(m.models, func(c ModelChoice) bool { return c.ID == current }) {
		return append(slices.Clip(m.models), m.model(current))
	}
	return m.models
}

// modelState returns the model choice in its older form (the "models"
// member of a session setup, for agent-shell and the AI SDK provider),
// the same models the model config option lists; nil when no model is on
// offer.
func (m settingsMenu) modelState(current string) *acp.SessionModelState {
	models := m.offered(current)
	if len(models) == 0 {
		return nil
	}
	out := &acp.SessionModelState{CurrentModelID: current, AvailableModels: make([]acp.ModelInfo, len(models))}
	for i, c := range models {
		out.AvailableModels[i] = acp.ModelInfo{ModelID: c.ID, Name: c.Name, Description: c.Description}
	}
	return out
}

// modes returns the permission presets as the legacy session modes, for
// clients without config options.
func modes(current policy.Preset) *acp.SessionModeState {
	presets := policy.Presets()
	out := &acp.SessionModeState{CurrentModeID: string(current), AvailableModes: make([]acp.SessionMode, len(presets))}
	for i, p := range presets {
		out.AvailableModes[i] = acp.SessionMode{ID: string(p), Name: presetName(p), Description: p.Description()}
	}
	return out
}

// change returns s with the option id set to value, or an error naming
// what is wrong (-32602 on the wire). Choosing a model resets the
// reasoning effort to that model's default unless the model takes the
// current one.
func (m settingsMenu) change(s live.Settings, id, value string) (live.Settings, error) {
	switch id {
	case optionMode:
		p, err := policy.ParsePreset(value)
		if err != nil {
			return s, err
		}
		s.Preset = p
	case optionModel:
		if len(m.models) == 0 {
			return s, fmt.Errorf("this agent offers no model choice")
		}
		if !slices.ContainsFunc(m.models, func(c ModelChoice) bool { return c.ID == value }) && value != s.Model {
			return s, fmt.Errorf("unknown model %q (the model option lists the models on offer)", value)
		}
		s.Model = value
		c := m.model(value)
		if !slices.Contains(c.Efforts, s.Effort) {
			s.Effort = c.DefaultEffort
			if s.Effort == "" && len(c.Efforts) > 0 {
				s.Effort = c.Efforts[0]
			}
		}
	case optionEffort:
		efforts := m.model(s.Model).Efforts
		if len(efforts) == 0 {
			return s, fmt.Errorf("model %q takes no reasoning effort", s.Model)
		}
		if !slices.Contains(efforts, value) {
			return s, fmt.Errorf("model %q takes reasoning effort %v, not %q", s.Model, efforts, value)
		}
		s.Effort = value
	default:
		return s, fmt.Errorf("unknown config option %q (want %s, %s or %s)", id, optionMode, optionModel, optionEffort)
	}
	return s, nil
}

// start returns the settings a new session starts with from the
// defaults: the effort of a model that takes one is its default.
func (m settingsMenu) start(d live.Settings) live.Settings {
	if d.Preset == "" {
		d.Preset = policy.WorkspaceWrite
	}
	if d.Effort == "" {
		c := m.model(d.Model)
		d.Effort = c.DefaultEffort
		if d.Effort == "" && len(c.Efforts) > 0 {
			d.Effort = c.Efforts[0]
		}
	}
	return d
}

// presetName is a preset's name in the editor's menus.
func presetName(p policy.Preset) string {
	switch p {
	case policy.ReadOnly:
		return "Read only"
	case policy.WorkspaceWrite:
		return "Workspace write"
	case policy.FullAccess:
		return "Full access"
	case policy.Plan:
		return "Plan"
	default:
		return string(p)
	}
}
