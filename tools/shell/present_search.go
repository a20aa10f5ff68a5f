package shell

import (
	"github.com/dsh-acp/dsh-acp/policy/command"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// searchCall is the pending card of a search (rg, grep, find, fd, …):
// titled with the command, of kind search, located at the one root it
// searches when that is literal (see commandPath).
func searchCall(a bashArgs, p command.Presentation) presentation.CallView {
	view := presentation.GenericCallView{
		Title:   a.Command,
		Kind:    presentation.KindSearch,
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
		return plainResult(o.raw)
	}
	return presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text(fenced("", o.body))}}
}
