package registry

// Effect says what a tool does to the world, so permission policies can
// treat tools by what they do rather than by name.
type Effect int

// The effects, from the least to the most consequential.
const (
	// EffectOther is a tool that touches nothing outside the session (a
	// plan update, say).
	EffectOther Effect = iota
	// EffectRead reads files or other state.
	EffectRead
	// EffectWrite changes files.
	EffectWrite
	// EffectExecute runs programs.
	EffectExecute
	// EffectExternal is a tool another program serves (an MCP server's):
	// what it does is not known, so it is treated like a command.
	EffectExternal
)

// String returns "other", "read", "write", "execute" or "external".
func (e Effect) String() string {
	switch e {
	case EffectRead:
		return "read"
	case EffectWrite:
		return "write"
	case EffectExecute:
		return "execute"
	case EffectExternal:
		return "external"
	default:
		return "other"
	}
}
