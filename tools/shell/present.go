package shell

import (
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// presentBashCall is the pending card of a bash call: a terminal card
// titled with the command (its workdir passed through as written) for a
// foreground command, a generic execute card for a background one.
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
	return presentation.TerminalCallView{Title: a.Command, Description: a.Description, Cwd: a.Workdir}
}

// presentBashResult is the completed card of a bash call whose content is
// exactly one text block (nil otherwise). A background start or a failure
// is that text as a fenced console block in a generic card. A foreground
// command is a terminal card with its exit (from the meta, else parsed
// from the trailing marker) and the text without the exit marker; other
// markers (timeout, truncation) stay.
func presentBashResult(a bashArgs, result presentation.ToolResult) presentation.ResultView {
	raw, ok := result.SingleText()
	if !ok {
		return nil
	}
	if a.RunInBackground || result.IsError {
		return presentation.GenericResultView{Content: []presentation.ContentBlock{
			presentation.Text("```console\n" + strings.TrimRight(raw, "\n") + "\n```"),
		}}
	}
	body, exit := parseExit(raw)
	if fromMeta, ok := exitFromMeta(result.Meta); ok {
		exit, body = fromMeta, raw
		if marker := exitMarker(fromMeta); marker != "" {
			body = strings.TrimSuffix(raw, "\n"+marker)
		}
	}
	view := presentation.TerminalResultView{Output: body, Signal: exit.signal}
	if exit.signal == "" {
		code := exit.code
		view.ExitCode = &code
	}
	return view
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
