package shell

import (
	"reflect"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
)

func intp(n int) *int { return &n }

func TestPresentBashCall(t *testing.T) {
	tests := []struct {
		name string
		args bashArgs
		want presentation.CallView
	}{
		{"S1 absolute workdir", bashArgs{Command: "ls", Description: "List files", Workdir: "/srv/app"},
			presentation.TerminalCallView{Title: "ls", Description: "List files", Cwd: "/srv/app"}},
		{"S1 relative workdir passes through as written", bashArgs{Command: "make", Description: "Build", Workdir: "sub/dir"},
			presentation.TerminalCallView{Title: "make", Description: "Build", Cwd: "sub/dir"}},
		{"no workdir", bashArgs{Command: "pwd", Description: "Where"},
			presentation.TerminalCallView{Title: "pwd", Description: "Where"}},
		// S11 does not apply: description is optional in our contract, so
		// a call without one still gets its card.
		{"S11 (adapted) no description", bashArgs{Command: "pwd"},
			presentation.TerminalCallView{Title: "pwd"}},
		{"S7 background", bashArgs{Command: "npm run dev", Description: "Start the dev server", RunInBackground: true},
			presentation.GenericCallView{Title: "npm run dev", Kind: presentation.KindExecute,
				Content: []presentation.ContentBlock{presentation.Text("Start the dev server")}}},
		{"background without description", bashArgs{Command: `echo "x"`, RunInBackground: true},
			presentation.GenericCallView{Title: `echo "x"`, Kind: presentation.KindExecute}},
		{"a background read stays a job card", bashArgs{Command: "cat main.go", RunInBackground: true},
			presentation.GenericCallView{Title: "cat main.go", Kind: presentation.KindExecute}},
		{"a pipeline stays a terminal", bashArgs{Command: "cat main.go | head"},
			presentation.TerminalCallView{Title: "cat main.go | head"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := presentBashCall(tt.args); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("presentBashCall = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestPresentBashResult(t *testing.T) {
	fg := bashArgs{Command: "x"}
	bg := bashArgs{Command: "x", RunInBackground: true}
	text := func(s string) []presentation.ContentBlock { return []presentation.ContentBlock{presentation.Text(s)} }
	fenced := func(s string) presentation.ResultView {
		return presentation.GenericResultView{Content: text(s)}
	}
	tests := []struct {
		name   string
		args   bashArgs
		result presentation.ToolResult
		want   presentation.ResultView
	}{
		{"S2 clean result keeps newlines", fg, presentation.ToolResult{Content: text("hi\n\n")},
			presentation.TerminalResultView{Output: "hi\n\n", ExitCode: intp(0)}},
		{"S3 exit code, marker stripped", fg, presentation.ToolResult{Content: text("oops\n[exit code: 3]")},
			presentation.TerminalResultView{Output: "oops", ExitCode: intp(3)}},
		{"S3 signal, marker stripped", fg, presentation.ToolResult{Content: text("gone\n[killed by signal: SIGKILL]")},
			presentation.TerminalResultView{Output: "gone", Signal: "SIGKILL"}},
		{"S4 timeout marker taken into the view", fg, presentation.ToolResult{Content: text("slow\n[timed out after 100ms]\n[exit code: 143]")},
			presentation.TerminalResultView{Output: "slow", ExitCode: intp(143), Timeout: 100 * time.Millisecond}},
		{"a sandbox marker stays", fg, presentation.ToolResult{Content: text("x\n[sandbox: blocked writing /etc/x]\n[exit code: 1]")},
			presentation.TerminalResultView{Output: "x\n[sandbox: blocked writing /etc/x]", ExitCode: intp(1)}},
		{"S6 marker-like text without newline", fg, presentation.ToolResult{Content: text("[exit code: 5]")},
			presentation.TerminalResultView{Output: "[exit code: 5]", ExitCode: intp(0)}},
		{"S7 background acknowledgement is fenced", bg, presentation.ToolResult{Content: text("started background job job_1")},
			fenced("```console\nstarted background job job_1\n```")},
		{"S8 an error is fenced, trailing newlines trimmed", fg, presentation.ToolResult{Content: text("Error: nope\n\n"), IsError: true},
			fenced("```console\nError: nope\n```")},
		{"a command a cancel stopped ends its terminal with its signal", fg, presentation.ToolResult{Content: text("Error: " + cancelledIntro + "so far\n\n[killed by signal: SIGTERM]"), IsError: true},
			presentation.TerminalResultView{Output: "so far\n", Signal: "SIGTERM"}},
		{"a stopped command that exited by itself keeps its code", fg, presentation.ToolResult{Content: text("Error: " + cancelledIntro + "(no output)\n[exit code: 130]"), IsError: true},
			presentation.TerminalResultView{Output: "(no output)", ExitCode: intp(130)}},
		{"a stopped read is fenced as an error", bashArgs{Command: "cat a.txt"}, presentation.ToolResult{Content: text("Error: " + cancelledIntro + "a\n[killed by signal: SIGTERM]"), IsError: true},
			fenced("```console\nError: " + cancelledIntro + "a\n[killed by signal: SIGTERM]\n```")},
		{"S9 non-text content", fg, presentation.ToolResult{Content: []presentation.ContentBlock{presentation.ImageBlock{MimeType: "image/png", Data: "AA=="}}},
			nil},
		{"S10 two blocks", fg, presentation.ToolResult{Content: append(text("a"), presentation.Text("b"))}, nil},
		{"S10 no block", fg, presentation.ToolResult{}, nil},
		{"meta wins over the text", fg, presentation.ToolResult{Content: text("done\n[exit code: 5]"), Meta: `{"exitCode":0}`},
			presentation.TerminalResultView{Output: "done\n[exit code: 5]", ExitCode: intp(0)}},
		{"meta exit strips its own marker", fg, presentation.ToolResult{Content: text("bad\n[exit code: 2]"), Meta: `{"exitCode":2}`},
			presentation.TerminalResultView{Output: "bad", ExitCode: intp(2)}},
		{"meta signal", fg, presentation.ToolResult{Content: text("x\n[timed out after 5ms]\n[killed by signal: SIGTERM]"), Meta: `{"signal":"SIGTERM","timedOut":true}`},
			presentation.TerminalResultView{Output: "x", Signal: "SIGTERM", Timeout: 5 * time.Millisecond}},
		{"malformed meta falls back to parsing", fg, presentation.ToolResult{Content: text("bad\n[exit code: 4]"), Meta: `[1]`},
			presentation.TerminalResultView{Output: "bad", ExitCode: intp(4)}},
		{"meta without exit falls back to parsing", fg, presentation.ToolResult{Content: text("bad\n[exit code: 4]"), Meta: `{"truncated":true}`},
			presentation.TerminalResultView{Output: "bad", ExitCode: intp(4)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := presentBashResult(testWorkspace(t), tt.args, tt.result)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("presentBashResult = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestPresentJobCalls(t *testing.T) {
	tests := []struct {
		name string
		got  presentation.CallView
		want presentation.CallView
	}{
		{"job_output", presentJobOutputCall(jobIDArgs{JobID: "job_2"}),
			presentation.GenericCallView{Title: "Read output from background job job_2", Kind: presentation.KindRead}},
		{"job_list", presentJobListCall(noArgs{}),
			presentation.GenericCallView{Title: "List background jobs", Kind: presentation.KindRead}},
		{"job_kill", presentJobKillCall(jobIDArgs{JobID: "job_2"}),
			presentation.GenericCallView{Title: "Kill background job job_2", Kind: presentation.KindExecute}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !reflect.DeepEqual(tt.got, tt.want) {
				t.Errorf("got %#v, want %#v", tt.got, tt.want)
			}
		})
	}
}

func TestMetaOf(t *testing.T) {
	tests := []struct {
		name string
		in   commandResult
		want resultMeta
	}{
		{"clean", commandResult{}, resultMeta{ExitCode: intp(0)}},
		{"code", commandResult{ExitCode: 9}, resultMeta{ExitCode: intp(9)}},
		{"signal and timeout", commandResult{Signal: "SIGTERM", TimeoutMs: 10}, resultMeta{Signal: "SIGTERM", TimedOut: true}},
		{"truncated", commandResult{StderrTruncated: true, ExitCode: 1}, resultMeta{ExitCode: intp(1), Truncated: true}},
		{"job", commandResult{JobID: "job_1"}, resultMeta{JobID: "job_1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := metaOf(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("metaOf = %+v, want %+v", got, tt.want)
			}
		})
	}
}
