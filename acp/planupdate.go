package acp

// PlanUpdate creates or replaces the plan its content names (schema
// 1.25's unstable plan operations): a list of entries (PlanItems) or
// Markdown (PlanMarkdown). A session may keep several plans, each by
// its own id. Send it only to a client that advertised
// clientCapabilities.plan (InitializeRequest.Plan); the others get Plan.
type PlanUpdate struct {
	Plan PlanUpdateContent
	Meta map[string]any
}

// PlanUpdateContent is a plan's new content: PlanItems or PlanMarkdown.
// The set is closed.
type PlanUpdateContent interface {
	planContentWire() any
}

// PlanItems is a plan as entries; each update sends every entry.
type PlanItems struct {
	PlanID  string
	Entries []PlanEntry
	Meta    map[string]any
}

// PlanMarkdown is a plan as Markdown text.
type PlanMarkdown struct {
	PlanID  string
	Content string
	Meta    map[string]any
}

// PlanRemoved removes the plan PlanID from the client's view. Send it
// only to a client that advertised clientCapabilities.plan.
type PlanRemoved struct {
	PlanID string
	Meta   map[string]any
}

type planItemsWire struct {
	Type    string         `json:"type"`
	PlanID  string         `json:"planId"`
	Entries []PlanEntry    `json:"entries"`
	Meta    map[string]any `json:"_meta,omitempty"`
}

type planMarkdownWire struct {
	Type    string         `json:"type"`
	PlanID  string         `json:"planId"`
	Content string         `json:"content"`
	Meta    map[string]any `json:"_meta,omitempty"`
}

type planUpdateWire struct {
	SessionUpdate string         `json:"sessionUpdate"`
	Plan          any            `json:"plan"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

type planRemovedWire struct {
	SessionUpdate string         `json:"sessionUpdate"`
	PlanID        string         `json:"planId"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

func (p PlanItems) planContentWire() any {
	entries := p.Entries
	if entries == nil {
		entries = []PlanEntry{}
	}
	return planItemsWire{"items", p.PlanID, entries, p.Meta}
}

func (p PlanMarkdown) planContentWire() any {
	return planMarkdownWire{"markdown", p.PlanID, p.Content, p.Meta}
}

func (u PlanUpdate) wire() (any, error) {
	if u.Plan == nil {
		return nil, errNilVariant("plan_update content")
	}
	return planUpdateWire{"plan_update", u.Plan.planContentWire(), u.Meta}, nil
}

func (u PlanRemoved) wire() (any, error) {
	return planRemovedWire{"plan_removed", u.PlanID, u.Meta}, nil
}

// MarshalJSON encodes the update as a session/update.
func (u PlanUpdate) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }

// MarshalJSON encodes the update as a session/update.
func (u PlanRemoved) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }
