package live

import "github.com/dsh-acp/dsh-acp/policy"

// Settings are what the user of a session can change while it runs.
type Settings struct {
	// Model is the id of the model the session's requests go to.
	Model string
	// Effort is the model's reasoning effort; "" leaves it to the model.
	Effort string
	// Preset is the permission preset.
	Preset policy.Preset
}
