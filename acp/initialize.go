package acp

import (
	"bytes"
	"encoding/json"

	acpsdk "github.com/coder/acp-go-sdk"
)

// InitializeRequest is the params of initialize: what the SDK decodes,
// and the client's session capabilities of schema 1.25, which it does not.
type InitializeRequest struct {
	acpsdk.InitializeRequest
	// ClientSession is clientCapabilities.session.
	ClientSession ClientSessionCapabilities `json:"-"`
	// Plan is set when the client sent an object for
	// clientCapabilities.plan (unstable in schema 1.25): it shows
	// plan_update and plan_removed (PlanUpdate, PlanRemoved).
	Plan bool `json:"-"`
	// ElicitationForm is true when the client sent an object for
	// clientCapabilities.elicitation.form: it shows the forms of
	// elicitation/create (Conn.CreateElicitation).
	ElicitationForm bool `json:"-"`
	// Subagents says the client shows child sessions
	// (clientCapabilities.subagents, unstable): it sent an object for it.
	Subagents bool `json:"-"`
}

// ClientSessionCapabilities are the session updates a client says it
// presents (clientCapabilities.session): each is true when the client
// sent an object for it.
type ClientSessionCapabilities struct {
	// Notices: the client shows "notice" updates to the user.
	Notices bool
	// Compaction: the client shows compaction_update and
	// compaction_summary_chunk.
	Compaction bool
}

// UnmarshalJSON decodes the SDK's fields as the SDK does, then
// clientCapabilities.session, clientCapabilities.plan,
// clientCapabilities.elicitation.form and clientCapabilities.subagents. A
// member that is not an object
// advertises nothing, as the schema's default-on-error says.
func (r *InitializeRequest) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &r.InitializeRequest); err != nil {
		return err
	}
	var probe struct {
		ClientCapabilities struct {
			Session     json.RawMessage `json:"session"`
			Plan        json.RawMessage `json:"plan"`
			Elicitation json.RawMessage `json:"elicitation"`
			Subagents   json.RawMessage `json:"subagents"`
		} `json:"clientCapabilities"`
	}
	if json.Unmarshal(data, &probe) != nil {
		return nil // clientCapabilities itself is the SDK's to judge
	}
	r.Plan = isObject(probe.ClientCapabilities.Plan)
	var elicitation struct {
		Form json.RawMessage `json:"form"`
	}
	if json.Unmarshal(probe.ClientCapabilities.Elicitation, &elicitation) == nil {
		r.ElicitationForm = isObject(elicitation.Form)
	}
	r.Subagents = isObject(probe.ClientCapabilities.Subagents)
	var session struct {
		Notices    json.RawMessage `json:"notices"`
		Compaction json.RawMessage `json:"compaction"`
	}
	if json.Unmarshal(probe.ClientCapabilities.Session, &session) != nil {
		return nil
	}
	r.ClientSession = ClientSessionCapabilities{Notices: isObject(session.Notices), Compaction: isObject(session.Compaction)}
	return nil
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}
