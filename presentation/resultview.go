package presentation

import "time"

// ResultView is how a finished tool call wants to be shown; it replaces the
// call's pending view. The union is closed: GenericResultView,
// TerminalResultView, DiffResultView, ReadResultView, SearchMatchesView and
// SearchPathsView are its only members.
type ResultView interface {
	// Card is the card's tag: "generic", "terminal", "diff", "read" or
	// "search".
	Card() string
	isResultView()
}

// GenericResultView is a titled block of content. Failed says the call
// failed although its result is no error for the model (a command that
// exited non-zero): the editor shows it failed. Summary says Content is
// the outcome told to the user in place of what the model read (a plan
// review's "Plan approved — implementing"): the editor is then given the
// model's content as the call's raw output.
type GenericResultView struct {
	Title   string
	Content []ContentBlock
	Failed  bool
	Summary bool
}

// TerminalResultView is a finished command's output and how it ended. At
// most one of ExitCode and Signal is set; Timeout, when set, is the
// timeout that stopped the command. Output holds no exit or timeout
// marker: End says how the command ended.
type TerminalResultView struct {
	Title    string
	Output   string
	ExitCode *int
	Signal   string
	Timeout  time.Duration
}

// DiffResultView is the change a tool applied, one FileDiff per hunk.
// Notes, when set, is shown after the diffs: what a check of the new
// content found (a language server's new errors). Locations, when set,
// are where a client following the agent should go (the first changed
// line).
type DiffResultView struct {
	Title     string
	Diffs     []FileDiff
	Notes     string
	Locations []FileLocation
}

// ReadFileLine is one line of a file as read: its 1-based number and text.
type ReadFileLine struct {
	Number int
	Text   string
}

// ReadResultView is a window of a file that was read. Offset is the 1-based
// first line shown; Lang is a short language hint ("go", "ts", …) or "".
type ReadResultView struct {
	Title      string
	Path       string
	Offset     int
	Lines      []ReadFileLine
	TotalLines int
	Lang       string
	Content    string
}

// SearchMatch is one matching line.
type SearchMatch struct {
	LineNumber int
	Line       string
}

// SearchFile groups the matches found in one file.
type SearchFile struct {
	Path    string
	Matches []SearchMatch
}

// SearchMatchesView is a content search's matches, grouped by file. Total
// counts every match found; Truncated says some were left out of Files.
type SearchMatchesView struct {
	Title     string
	Files     []SearchFile
	Truncated bool
	Total     int
}

// SearchPathsView is a path search's results. Total counts every path
// found; Truncated says some were left out of Paths.
type SearchPathsView struct {
	Title     string
	Paths     []string
	Truncated bool
	Total     int
}

// End is how the command ended.
func (v TerminalResultView) End() CommandEnd {
	return CommandEnd{ExitCode: v.ExitCode, Signal: v.Signal, Timeout: v.Timeout}
}

// Card returns "generic".
func (GenericResultView) Card() string { return "generic" }

// Card returns "terminal".
func (TerminalResultView) Card() string { return "terminal" }

// Card returns "diff".
func (DiffResultView) Card() string { return "diff" }

// Card returns "read".
func (ReadResultView) Card() string { return "read" }

// Card returns "search".
func (SearchMatchesView) Card() string { return "search" }

// Card returns "search".
func (SearchPathsView) Card() string { return "search" }

func (GenericResultView) isResultView()  {}
func (TerminalResultView) isResultView() {}
func (DiffResultView) isResultView()     {}
func (ReadResultView) isResultView()     {}
func (SearchMatchesView) isResultView()  {}
func (SearchPathsView) isResultView()    {}
