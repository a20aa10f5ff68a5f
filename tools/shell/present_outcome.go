package shell

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// outcome is how a foreground command ended, as its result tells it.
type outcome struct {
	// raw is the result text as the model read it.
	raw string
	// body is raw without the trailing exit marker.
	body string
	exit exitStatus
	// timedOut and truncated say the command was stopped by its timeout
	// or its output was cut (from the meta, else from the markers).
	timedOut, truncated bool
}

// outcomeOf reads a foreground command's result text and meta. The exit
// comes from the meta when it has one, else from the trailing marker.
func outcomeOf(raw, meta string) outcome {
	body, exit := parseExit(raw)
	if fromMeta, ok := exitFromMeta(meta); ok {
		exit, body = fromMeta, raw
		if marker := exitMarker(fromMeta); marker != "" {
			body = strings.TrimSuffix(raw, "\n"+marker)
		}
	}
	o := outcome{raw: raw, body: body, exit: exit}
	var flags struct {
		TimedOut  bool `json:"timedOut"`
		Truncated bool `json:"truncated"`
	}
	if strings.HasPrefix(meta, "{") && json.Unmarshal([]byte(meta), &flags) == nil {
		o.timedOut, o.truncated = flags.TimedOut, flags.Truncated
	}
	o.timedOut = o.timedOut || hasMarkerLine(body, "[timed out after ")
	o.truncated = o.truncated || hasMarkerLine(body, "[output truncated; ")
	return o
}

// clean reports whether the command exited 0 by itself with all of its
// output kept: only then is its output shown as what it read.
func (o outcome) clean() bool {
	return o.exit.signal == "" && o.exit.code == 0 && !o.timedOut && !o.truncated
}

// output is the command's output with "(no output)" read as nothing.
func (o outcome) output() string {
	if o.body == noOutput {
		return ""
	}
	return o.body
}

// noOutput is what renderResult writes for a command that printed nothing.
const noOutput = "(no output)"

// hasMarkerLine reports whether a line of text starts with marker.
func hasMarkerLine(text, marker string) bool {
	return strings.HasPrefix(text, marker) || strings.Contains(text, "\n"+marker)
}

// plainResult shows a result text as it is, in a console block: the card
// of a failure, and of a read, search or diff whose output cannot be
// shown as what it read.
func plainResult(raw string) presentation.ResultView {
	return presentation.GenericResultView{Content: []presentation.ContentBlock{
		presentation.Text(fenced("console", raw)),
	}}
}

// fenced puts text in a Markdown code block tagged info, with a fence
// longer than any run of backticks in text, and without its trailing
// newlines.
func fenced(info, text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + info + "\n" + strings.TrimRight(text, "\n") + "\n" + fence
}

// commandPath is a path a command names, as a card locates it: absolute
// as written, else joined to the call's workdir (which is itself absolute
// or relative to the session's working directory), else as written,
// relative to the session's working directory.
func commandPath(workdir, path string) string {
	if filepath.IsAbs(path) || workdir == "" {
		return path
	}
	return filepath.Join(workdir, path)
}
