package shell

import (
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// diffResult is the completed card of git diff or git show: when it
// exited 0 with all of its output, its unified diff (stdout; stderr set
// aside) as diff cards, one per hunk, paths relative to the call's
// workdir (see parseGitDiff); the files without a hunk to show are named
// in the title. Output that is no diff, or a diff that cannot be read,
// a failure, a timeout or a cut output show the text as it is, and so
// does a diff naming a file that is not inside ws once links are followed
// (../../etc/passwd, an absolute path, a link out of the workspace): the
// editor opens the file of a diff card, and the diff text is the
// command's, so a hostile repository could make it name any file.
func diffResult(ws *workspace.Workspace, a bashArgs, o outcome) presentation.ResultView {
	if !o.clean() {
		return outputResult(o)
	}
	d, err := parseGitDiff(stdoutOf(o.body), a.Workdir)
	if err != nil || len(d.diffs) == 0 || !allInside(ws, d.diffs) {
		return outputResult(o)
	}
	return presentation.DiffResultView{Title: diffTitle(a.Command, d.notShown), Diffs: d.diffs}
}

// allInside reports whether every diff's file lies inside ws, its links
// followed (workspace.Contains); a relative path is taken against the
// session's working directory, as the editor takes it.
func allInside(ws *workspace.Workspace, diffs []presentation.FileDiff) bool {
	for i, d := range diffs {
		// A file's hunks follow one another: its path is checked once.
		if (i == 0 || d.Path != diffs[i-1].Path) && !ws.Contains(d.Path) {
			return false
		}
	}
	return true
}

// stdoutOf returns the part of a result body before its "[stderr]" line
// (see renderResult). In a diff the first such line is that marker: no
// line of a diff is "[stderr]".
func stdoutOf(body string) string {
	if body == noOutput || strings.HasPrefix(body, stderrLine) {
		return ""
	}
	if i := strings.Index(body, "\n"+stderrLine); i >= 0 {
		return body[:i+1]
	}
	return body
}

// stderrLine is the line renderResult puts before a command's stderr.
const stderrLine = "[stderr]\n"

// maxNotShown is how many files a diff card's title names that it cannot
// show.
const maxNotShown = 3

// diffTitle is the command, followed by the files it does not show:
// "git diff (not shown: logo.png (binary), and 2 more)".
func diffTitle(cmd string, notShown []string) string {
	if len(notShown) == 0 {
		return cmd
	}
	names := notShown[:min(len(notShown), maxNotShown)]
	list := strings.Join(names, ", ")
	if more := len(notShown) - len(names); more > 0 {
		list += fmt.Sprintf(", and %d more", more)
	}
	return cmd + " (not shown: " + list + ")"
}
