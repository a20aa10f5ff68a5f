package shell

import (
	"strings"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// presentBashCall is the pending card of a bash call. A foreground command
// is shown for what it is (command.Present): a plain read of one file as
// a read card, a search as a search card, git diff and git show as a read
// titled with the command; any other one as a terminal card titled with
// the command (its workdir passed through as written). A background
// command is a generic execute card. How a call is shown changes nothing
// about how it runs.
func presentBashCall(a bashArgs) presentation.CallView {
	if a.RunInBackground {
		view := presentation.GenericCallView{
			Title: a.Command,
			Kind:  presentation.KindExecute,
		}
		if a.Description != "" {
			view.Content = []presentation.ContentBlock{presentation.Text(a.Description)}
		}
		return view
	}
	switch p := command.Present(a.Command); p.Kind {
	case command.KindRead:
		return readCall(a, p)
	case command.KindSearch:
		return locatedCall(a, p, presentation.KindSearch)
	case command.KindDiff:
		return locatedCall(a, p, presentation.KindRead)
	default:
		return presentation.TerminalCallView{Title: a.Command, Description: a.Description, Cwd: a.Workdir}
	}
}

// presentBashResult is the completed card of a bash call whose content is
// exactly one text block (nil otherwise). A background start (the job
// started: it did not fail) or a tool error is that text in a console
// block. A foreground command shown as a read, a search or a diff gets
// the matching card when it exited 0 with all of its output (see
// readResult, searchResult, diffResult: diff cards only for files inside
// ws), and its output in a console block otherwise (outputResult: a
// failed one says how it ended and is failed). Any other foreground
// command is a terminal card with its exit (from the meta, else parsed
// from the trailing marker), its timeout, and the text without the exit
// and timeout markers; other markers (sandbox, truncation) stay. What
// counts as failed is presentation.CommandEnd.Failed: a non-zero exit, a
// signal, a timeout; the model still reads it as an ordinary result.
func presentBashResult(ws *workspace.Workspace, a bashArgs, result presentation.ToolResult) presentation.ResultView {
	raw, ok := result.SingleText()
	if !ok {
		return nil
	}
	if a.RunInBackground {
		return plainResult(raw)
	}
	p := command.Present(a.Command)
	terminal := p.Kind != command.KindRead && p.Kind != command.KindSearch && p.Kind != command.KindDiff
	if result.IsError {
		if stopped, ok := cancelledOutput(raw); ok && terminal {
			return terminalResult(outcomeOf(stopped, ""))
		}
		return plainResult(raw)
	}
	o := outcomeOf(raw, result.Meta)
	switch p.Kind {
	case command.KindRead:
		return readResult(a, p, o)
	case command.KindSearch:
		return searchResult(o)
	case command.KindDiff:
		return diffResult(ws, a, o)
	}
	return terminalResult(o)
}

// terminalResult is the terminal card of a command that ended as o says.
func terminalResult(o outcome) presentation.ResultView {
	end := o.end()
	return presentation.TerminalResultView{Output: o.body, ExitCode: end.ExitCode, Signal: end.Signal, Timeout: end.Timeout}
}

// cancelledOutput is the rendered result (output so far and exit marker)
// in the failure text of a foreground command a cancel stopped
// ("Error: " + cancelledIntro + result); ok is false for any other
// failure.
func cancelledOutput(raw string) (string, bool) {
	return strings.CutPrefix(raw, "Error: "+cancelledIntro)
}

// presentJobOutputCall is the pending card of job_output.
func presentJobOutputCall(a jobIDArgs) presentation.CallView {
	return presentation.GenericCallView{
		Title: "Read output from background job " + a.JobID,
		Kind:  presentation.KindRead,
	}
}

// presentJobListCall is the pending card of job_list.
func presentJobListCall(noArgs) presentation.CallView {
	return presentation.GenericCallView{Title: "List background jobs", Kind: presentation.KindRead}
}

// presentJobKillCall is the pending card of job_kill.
func presentJobKillCall(a jobIDArgs) presentation.CallView {
	return presentation.GenericCallView{Title: "Kill background job " + a.JobID, Kind: presentation.KindExecute}
}
