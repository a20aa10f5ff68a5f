package presentation

import "strings"

// Fence puts text in a Markdown code block tagged info, with a fence
// longer than any run of backticks in text, and without its trailing
// newlines.
func Fence(info, text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + info + "\n" + strings.TrimRight(text, "\n") + "\n" + fence
}

// ConsoleText shows a command's output as text, for an editor without a
// terminal: a fenced console block, then, when the command failed, a line
// saying how it ended ("exit code 3").
func ConsoleText(output string, end CommandEnd) string {
	text := Fence("console", output)
	if end.Failed() {
		text += "\n" + end.String()
	}
	return text
}
