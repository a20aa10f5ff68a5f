package shell

import (
	"strings"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// readCall is the pending card of a command that reads one file (cat,
// head, tail, sed -n 'A,Bp'): "Read <path as written>", of kind read,
// located at the file (see commandPath) and the first line shown when the
// command says it.
func readCall(a bashArgs, p command.Presentation) presentation.CallView {
	return presentation.GenericCallView{
		Title:     readCommandTitle(p),
		Kind:      presentation.KindRead,
		Content:   descriptionContent(a),
		Locations: []presentation.FileLocation{{Path: commandPath(a.Workdir, p.Path), Line: p.Line}},
	}
}

// readResult is the completed card of such a command. Exited 0 with all
// of its output, its output is the text of the file from the first line
// shown: a read card when that line is known, the text in a code block
// otherwise (tail -n 20). A failure (cat of a missing file) shows its
// output and exit as they are.
func readResult(a bashArgs, p command.Presentation, o outcome) presentation.ResultView {
	if !o.clean() {
		return outputResult(o)
	}
	text := o.output()
	if p.Line < 1 {
		return presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text(fenced("", text))}}
	}
	return presentation.ReadResultView{
		Title:   readCommandTitle(p),
		Path:    commandPath(a.Workdir, p.Path),
		Offset:  p.Line,
		Lines:   numberedLines(text, p.Line),
		Content: text,
	}
}

// readCommandTitle is "Read <path as written>".
func readCommandTitle(p command.Presentation) string {
	return "Read " + p.Path
}

// numberedLines splits text into lines numbered from first; a final
// newline ends the last line rather than starting another.
func numberedLines(text string, first int) []presentation.ReadFileLine {
	if text == "" {
		return []presentation.ReadFileLine{}
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	out := make([]presentation.ReadFileLine, len(lines))
	for i, l := range lines {
		out[i] = presentation.ReadFileLine{Number: first + i, Text: l}
	}
	return out
}

// descriptionContent is the call's description as a card's content, nil
// when it has none.
func descriptionContent(a bashArgs) []presentation.ContentBlock {
	if a.Description == "" {
		return nil
	}
	return []presentation.ContentBlock{presentation.Text(a.Description)}
}
