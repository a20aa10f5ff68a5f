package presentation

// CallView is how a tool call wants to be shown while it is pending or
// running. The union is closed: GenericCallView, TerminalCallView and
// DiffCallView are its only members.
type CallView interface {
	// Card is the card's tag: "generic", "terminal" or "diff".
	Card() string
	isCallView()
}

// GenericCallView is a titled card with an optional kind, content and
// followable locations. A card chooses its title and content only: editors
// are always shown the call's arguments as the model sent them.
type GenericCallView struct {
	Title     string
	Kind      ToolCallKind
	Content   []ContentBlock
	Locations []FileLocation
}

// TerminalCallView is a shell command about to run. Title is the command;
// Cwd, when set, is absolute, or relative to the session's working directory.
type TerminalCallView struct {
	Title       string
	Description string
	Cwd         string
}

// DiffCallView is a proposed file change the user can review.
type DiffCallView struct {
	Title     string
	Diffs     []FileDiff
	Locations []FileLocation
}

// Card returns "generic".
func (GenericCallView) Card() string { return "generic" }

// Card returns "terminal".
func (TerminalCallView) Card() string { return "terminal" }

// Card returns "diff".
func (DiffCallView) Card() string { return "diff" }

func (GenericCallView) isCallView()  {}
func (TerminalCallView) isCallView() {}
func (DiffCallView) isCallView()     {}
