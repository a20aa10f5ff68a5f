package shell

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
)

func TestPresentClassifiedCall(t *testing.T) {
	loc := func(path string, line int) []presentation.FileLocation {
		return []presentation.FileLocation{{Path: path, Line: line}}
	}
	read := func(title string, locs []presentation.FileLocation) presentation.CallView {
		return presentation.GenericCallView{Title: title, Kind: presentation.KindRead, Locations: locs}
	}
	search := func(title string, locs []presentation.FileLocation) presentation.CallView {
		return presentation.GenericCallView{Title: title, Kind: presentation.KindSearch, Locations: locs}
	}
	tests := []struct {
		name string
		args bashArgs
		want presentation.CallView
	}{
		{"cat", bashArgs{Command: "cat main.go"}, read("Read main.go", loc("main.go", 1))},
		{"cat of a path with spaces", bashArgs{Command: `cat "my notes.txt"`}, read("Read my notes.txt", loc("my notes.txt", 1))},
		{"relative to a relative workdir", bashArgs{Command: "head -n 5 'a b/c.go'", Workdir: "sub"},
			read("Read a b/c.go", loc("sub/a b/c.go", 1))},
		{"relative to an absolute workdir", bashArgs{Command: "cat ../x.go", Workdir: "/srv/app/cmd"},
			read("Read ../x.go", loc("/srv/app/x.go", 1))},
		{"an absolute path ignores the workdir", bashArgs{Command: "cat /etc/hosts", Workdir: "sub"},
			read("Read /etc/hosts", loc("/etc/hosts", 1))},
		{"sed -n range: its first line", bashArgs{Command: "sed -n '10,20p' f"}, read("Read f", loc("f", 10))},
		{"tail -n +N", bashArgs{Command: "tail -n +40 f"}, read("Read f", loc("f", 40))},
		{"tail: line unknown", bashArgs{Command: "tail -20 f"}, read("Read f", loc("f", 0))},
		{"the description is the content", bashArgs{Command: "cat f", Description: "Show f"},
			presentation.GenericCallView{Title: "Read f", Kind: presentation.KindRead, Locations: loc("f", 1),
				Content: []presentation.ContentBlock{presentation.Text("Show f")}}},
		{"rg with a root", bashArgs{Command: "rg -n foo src", Workdir: "/srv/app"}, search("rg -n foo src", loc("/srv/app/src", 0))},
		{"rg without a root searches the workdir", bashArgs{Command: "rg foo"}, search("rg foo", loc(".", 0))},
		{"grep without a root reads its input", bashArgs{Command: "grep foo"}, search("grep foo", nil)},
		{"grep of a path with spaces", bashArgs{Command: "grep -n foo 'my dir'", Workdir: "w"}, search("grep -n foo 'my dir'", loc("w/my dir", 0))},
		{"find", bashArgs{Command: "find . -name '*.go'", Workdir: "w"}, search("find . -name '*.go'", loc("w", 0))},
		{"two roots: no location", bashArgs{Command: "rg foo a b"}, search("rg foo a b", nil)},
		{"git diff", bashArgs{Command: "git diff"}, read("git diff", nil)},
		{"git diff of one path", bashArgs{Command: "git diff HEAD -- 'a b.go'", Workdir: "sub"}, read("git diff HEAD -- 'a b.go'", loc("sub/a b.go", 0))},
		{"git show", bashArgs{Command: "git --no-pager show HEAD~1"}, read("git --no-pager show HEAD~1", nil)},
		{"cat of two files is a terminal", bashArgs{Command: "cat a b", Workdir: "w"},
			presentation.TerminalCallView{Title: "cat a b", Cwd: "w"}},
		{"git log is a terminal", bashArgs{Command: "git log"}, presentation.TerminalCallView{Title: "git log"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := presentBashCall(tt.args); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("presentBashCall = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestPresentClassifiedResult(t *testing.T) {
	text := func(s string) []presentation.ContentBlock { return []presentation.ContentBlock{presentation.Text(s)} }
	result := func(s, meta string) presentation.ToolResult {
		return presentation.ToolResult{Content: text(s), Meta: meta}
	}
	generic := func(s string) presentation.ResultView { return presentation.GenericResultView{Content: text(s)} }
	failed := func(s string) presentation.ResultView {
		return presentation.GenericResultView{Content: text(s), Failed: true}
	}
	const ok = `{"exitCode":0}`
	lines := func(first int, texts ...string) []presentation.ReadFileLine {
		out := []presentation.ReadFileLine{}
		for i, t := range texts {
			out = append(out, presentation.ReadFileLine{Number: first + i, Text: t})
		}
		return out
	}
	spilled := "a\nb\n[output truncated; full output: /tmp/spill/1.txt]"
	tests := []struct {
		name   string
		args   bashArgs
		result presentation.ToolResult
		want   presentation.ResultView
	}{
		{"cat: a read card from line 1", bashArgs{Command: "cat main.go"}, result("package main\n\nfunc main() {}\n", ok),
			presentation.ReadResultView{Title: "Read main.go", Path: "main.go", Offset: 1,
				Lines: lines(1, "package main", "", "func main() {}"), Content: "package main\n\nfunc main() {}\n"}},
		{"sed -n from line 10, in a workdir", bashArgs{Command: "sed -n '10,11p' 'a b.go'", Workdir: "sub"}, result("x\r\ny", ok),
			presentation.ReadResultView{Title: "Read a b.go", Path: "sub/a b.go", Offset: 10, Lines: lines(10, "x\r", "y"), Content: "x\r\ny"}},
		{"an empty file", bashArgs{Command: "cat empty"}, result(noOutput, ok),
			presentation.ReadResultView{Title: "Read empty", Path: "empty", Offset: 1, Lines: lines(1), Content: ""}},
		{"no meta: the exit from the text", bashArgs{Command: "cat f"}, result("x", ""),
			presentation.ReadResultView{Title: "Read f", Path: "f", Offset: 1, Lines: lines(1, "x"), Content: "x"}},
		{"tail: the text without line numbers", bashArgs{Command: "tail -2 f"}, result("y\nz\n", ok), generic("```\ny\nz\n```")},
		{"a failed read shows its error, then its exit, and fails", bashArgs{Command: "cat nope"},
			result("[stderr]\ncat: nope: No such file or directory\n[exit code: 1]", `{"exitCode":1}`),
			failed("```console\n[stderr]\ncat: nope: No such file or directory\n```\nexit code 1")},
		{"a cut read shows its text as it is", bashArgs{Command: "cat big"}, result(spilled, `{"exitCode":0,"truncated":true}`),
			generic("```console\n" + spilled + "\n```")},
		{"the spill marker without meta", bashArgs{Command: "cat big"}, result(spilled, ""), generic("```console\n" + spilled + "\n```")},
		{"a timed-out read", bashArgs{Command: "cat fifo"}, result("(no output)\n[timed out after 5ms]\n[killed by signal: SIGTERM]", `{"signal":"SIGTERM","timedOut":true}`),
			failed("```console\n(no output)\n```\ntimed out after 5 ms")},
		{"search output in a code block", bashArgs{Command: "rg -n foo"}, result("a.go:3:foo\n", ok), generic("```\na.go:3:foo\n```")},
		{"a fence longer than the output's backticks", bashArgs{Command: "rg fence"}, result("README.md:```go\n", ok), generic("````\nREADME.md:```go\n````")},
		{"no match", bashArgs{Command: "grep -rn foo ."}, result("(no output)\n[exit code: 1]", `{"exitCode":1}`), generic("No matches found.")},
		{"find finding nothing", bashArgs{Command: "find . -name x"}, result(noOutput, ok), generic("No matches found.")},
		{"a search error", bashArgs{Command: "rg foo nope"}, result("[stderr]\nnope: No such file\n[exit code: 2]", `{"exitCode":2}`),
			failed("```console\n[stderr]\nnope: No such file\n```\nexit code 2")},
		{"git diff: a diff card per hunk", bashArgs{Command: "git diff"}, result(diffTwoFiles, ok),
			presentation.DiffResultView{Title: "git diff", Diffs: []presentation.FileDiff{
				{Path: "a.txt", OldText: strp("one\ntwo\nthree\n"), NewText: "one\nTWO\nthree\n", Line: 2},
				{Path: "a.txt", OldText: strp("eight\nnine\nten\n"), NewText: "eight\nNINE\nten\n", Line: 9},
				{Path: "src/b.go", OldText: strp("package b\n"), NewText: "package b\n\nvar x = 1\n", Line: 2},
			}}},
		{"git diff in a workdir, stderr set aside", bashArgs{Command: "git diff", Workdir: "/srv/app"},
			result(diffNoNewline+"[stderr]\nwarning: in the working copy of 'nonl.txt', LF will be replaced by CRLF\n", ok),
			presentation.DiffResultView{Title: "git diff", Diffs: []presentation.FileDiff{
				{Path: "/srv/app/nonl.txt", OldText: strp("nl"), NewText: "nl2", Line: 1}}}},
		{"git show: new and deleted files, the binary named", bashArgs{Command: "git show"},
			result(showCommit+gitOutput(diffNewFileWithSpace), ok),
			presentation.DiffResultView{Title: "git show (not shown: img.bin (binary))", Diffs: []presentation.FileDiff{
				{Path: "old.txt", OldText: strp("gone\n"), NewText: ""},
				{Path: "new file.txt", NewText: "new\nlines\n", Line: 1}}}},
		{"four not shown: three named", bashArgs{Command: "git diff"},
			result(diffBinary+diffRenamedOnly+diffModeAndEmptyNew+strings.ReplaceAll(diffBinary, "img", "logo")+gitOutput(diffCRLF), ok),
			presentation.DiffResultView{
				Title: "git diff (not shown: img.bin (binary), moved.txt (renamed from pure.txt), a.txt (mode changed), and 1 more)",
				Diffs: []presentation.FileDiff{{Path: "empty.txt"}, {Path: "crlf.txt", OldText: strp("x\r\ny\r\nz\r\n"), NewText: "x\r\nY\r\nz\r\n", Line: 2}}}},
		{"only a binary: the text as it is", bashArgs{Command: "git diff"}, result(diffBinary, ok), generic("```console\n" + diffBinary + "```")},
		{"no changes", bashArgs{Command: "git diff"}, result(noOutput, ok), generic("```console\n(no output)\n```")},
		{"not a diff", bashArgs{Command: "git show --stat"}, result(diffStat, ok), generic("```console\n" + diffStat + "```")},
		{"an unreadable diff", bashArgs{Command: "git diff --word-diff"}, result(diffWords, ok), generic("```console\n" + diffWords + "```")},
		{"git failed", bashArgs{Command: "git diff"}, result("[stderr]\nfatal: not a git repository\n[exit code: 128]", `{"exitCode":128}`),
			failed("```console\n[stderr]\nfatal: not a git repository\n```\nexit code 128")},
		{"a cut diff", bashArgs{Command: "git diff"}, result(diffDeleted+"[output truncated; full output: /tmp/s/2.txt]", `{"exitCode":0,"truncated":true}`),
			generic("```console\n" + diffDeleted + "[output truncated; full output: /tmp/s/2.txt]\n```")},
		{"a tool error is fenced", bashArgs{Command: "git diff"}, presentation.ToolResult{Content: text("Error: workdir gone"), IsError: true},
			generic("```console\nError: workdir gone\n```")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := presentBashResult(testWorkspace(t), tt.args, tt.result)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("presentBashResult =\n%#v\nwant\n%#v", got, tt.want)
			}
		})
	}
}
