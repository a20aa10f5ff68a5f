package acp

// NoticeSeverity is how a notice wants to be presented.
type NoticeSeverity string

// The notice severities of schema 1.25.
const (
	NoticeInfo    NoticeSeverity = "info"
	NoticeWarning NoticeSeverity = "warning"
	NoticeError   NoticeSeverity = "error"
)

// Notice tells the user something outside the conversation (a server
// that failed, a fallback taken): a live event, not history. Send it
// only to a client that advertised clientCapabilities.session.notices
// (InitializeRequest.ClientSession).
type Notice struct {
	Severity NoticeSeverity
	// Title is required and stands alone; Description adds detail.
	Title       string
	Description string
	Meta        map[string]any
}

type noticeWire struct {
	SessionUpdate string         `json:"sessionUpdate"`
	Severity      NoticeSeverity `json:"severity"`
	Title         string         `json:"title"`
	Description   string         `json:"description,omitempty"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

func (u Notice) wire() (any, error) {
	if u.Title == "" {
		return nil, errNilVariant("a notice without a title")
	}
	return noticeWire{"notice", u.Severity, u.Title, u.Description, u.Meta}, nil
}

// MarshalJSON encodes the notice as a session/update.
func (u Notice) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }
