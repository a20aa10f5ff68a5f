package shell

import (
	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// locatedCall is the pending card of a search (rg, grep, find, fd, …; kind
// search) or of git diff / git show (kind read: it changes nothing):
// titled with the command, located at the one path it names when that is
// literal (see commandPath).
func locatedCall(a bashArgs, p command.Presentation, kind presentation.ToolCallKind) presentation.CallView {
	view := presentation.GenericCallView{
		Title:   a.Command,
		Kind:    kind,
		Content: descriptionContent(a),
	}
	if p.Path != "" {
		view.Locations = []presentation.FileLocation{{Path: commandPath(a.Workdir, p.Path)}}
	}
	return view
}

// searchResult is the completed card of a search: its output in a code
// block when it exited 0 with all of its output, "No matches found." when
// it printed nothing and exited 0 or 1 (grep's and rg's "no match"), and
// its output and exit as they are otherwise.
func searchResult(o outcome) presentation.ResultView {
	if o.body == noOutput && o.exit.signal == "" && o.exit.code <= 1 && !o.timedOut && !o.truncated {
		return presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text("No matches found.")}}
	}
	if !o.clean() {
		return outputResult(o)
	}
	return presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text(fenced("", o.body))}}
}
