package presentation

// ToolCallKind tells a client what sort of work a tool call does, so it can
// pick an icon or a grouping. The zero value means KindOther.
type ToolCallKind string

// The tool call kinds. Clients that know none of them show KindOther.
const (
	KindRead    ToolCallKind = "read"
	KindEdit    ToolCallKind = "edit"
	KindDelete  ToolCallKind = "delete"
	KindMove    ToolCallKind = "move"
	KindSearch  ToolCallKind = "search"
	KindExecute ToolCallKind = "execute"
	KindFetch   ToolCallKind = "fetch"
	KindThink   ToolCallKind = "think"
	// KindSwitchMode is a call that switches the session's mode (leaving
	// plan mode).
	KindSwitchMode ToolCallKind = "switch_mode"
	KindOther      ToolCallKind = "other"
)

// OrOther returns k, or KindOther when k is empty or not one of the kinds
// above, so callers never emit a kind a client does not know.
func (k ToolCallKind) OrOther() ToolCallKind {
	switch k {
	case KindRead, KindEdit, KindDelete, KindMove, KindSearch, KindExecute, KindFetch, KindThink, KindSwitchMode, KindOther:
		return k
	default:
		return KindOther
	}
}
