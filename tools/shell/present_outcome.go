package shell

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// outcome is how a foreground command ended, as its result tells it.
type outcome struct {
	// raw is the result text as the model read it.
	raw string
	// body is raw without the trailing exit and timeout markers.
	body string
	exit exitStatus
	// timeout is the timeout that stopped the command (from its marker),
	// or 0.
	timeout time.Duration
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
	body, timeout := cutTimeout(body)
	o := outcome{raw: raw, body: body, exit: exit, timeout: timeout}
	var flags struct {
		TimedOut  bool `json:"timedOut"`
		Truncated bool `json:"truncated"`
	}
	if strings.HasPrefix(meta, "{") && json.Unmarshal([]byte(meta), &flags) == nil {
		o.timedOut, o.truncated = flags.TimedOut, flags.Truncated
	}
	o.timedOut = o.timedOut || timeout > 0
	o.truncated = o.truncated || hasMarkerLine(body, "[output truncated; ")
	return o
}

// cutTimeout takes the timeout marker off the end of body (renderResult
// writes it last before the exit marker): "\n[timed out after <N>ms]".
func cutTimeout(body string) (rest string, timeout time.Duration) {
	start := strings.LastIndex(body, "\n[timed out after ")
	if start < 0 || !strings.HasSuffix(body, "ms]") {
		return body, 0
	}
	digits := body[start+len("\n[timed out after ") : len(body)-len("ms]")]
	ms, err := strconv.Atoi(digits)
	if !isDigits(digits) || err != nil || ms <= 0 {
		return body, 0
	}
	return body[:start], time.Duration(ms) * time.Millisecond
}

// end is how the command ended, as the editor is shown it.
func (o outcome) end() presentation.CommandEnd {
	end := presentation.CommandEnd{Signal: o.exit.signal, Timeout: o.timeout}
	if o.exit.signal == "" {
		code := o.exit.code
		end.ExitCode = &code
	}
	return end
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

// outputResult shows a command's output as it is, in a console block,
// when it cannot be shown as what it read: a failed command's output
// (without its exit and timeout markers) then says how it ended, and the
// card is failed; any other keeps its text whole.
func outputResult(o outcome) presentation.ResultView {
	end := o.end()
	if !end.Failed() {
		return plainResult(o.raw)
	}
	return presentation.GenericResultView{
		Content: []presentation.ContentBlock{presentation.Text(presentation.ConsoleText(o.body, end))},
		Failed:  true,
	}
}

// plainResult shows a result text as it is, in a console block: the card
// of a failure, and of a read, search or diff whose output cannot be
// shown as what it read.
func plainResult(raw string) presentation.ResultView {
	return presentation.GenericResultView{Content: []presentation.ContentBlock{
		presentation.Text(fenced("console", raw)),
	}}
}

// fenced puts text in a Markdown code block tagged info (presentation.Fence).
func fenced(info, text string) string { return presentation.Fence(info, text) }

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
