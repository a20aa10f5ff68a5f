package bridge_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/session"
)

const cwd = "/home/u/proj"

func ev(p session.Payload) session.Event { return session.Event{Payload: p} }

func encode(t *testing.T, updates []acp.Update) []string {
	t.Helper()
	out := make([]string, len(updates))
	for i, u := range updates {
		data, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(data)
	}
	return out
}

func code(n int) *int { return &n }

func old(s string) *string { return &s }

func TestMapperChunksAndTurnEvents(t *testing.T) {
	tests := []struct {
		name    string
		opts    bridge.MapperOptions
		payload session.Payload
		want    []string
	}{
		{"B13 text", bridge.MapperOptions{}, session.AssistantChunk{Text: "hello"}, []string{`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello"}}`}},
		{"B14 reasoning", bridge.MapperOptions{}, session.AssistantChunk{Text: "hmm", Reasoning: true}, []string{`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hmm"}}`}},
		{"empty chunk", bridge.MapperOptions{}, session.AssistantChunk{}, nil},
		{"B16 retry", bridge.MapperOptions{}, session.ModelRetry{Attempt: 1, MaxAttempts: 4, Wait: 250 * time.Millisecond, Reason: "HTTP 429"},
			[]string{`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\n\n[Model request failed (HTTP 429); retrying 1/4 in 250ms]\n\n"}}`}},
		{"a retry is a notice to a client that shows them", bridge.MapperOptions{Notices: true}, session.ModelRetry{Attempt: 1, MaxAttempts: 4, Wait: 250 * time.Millisecond, Reason: "HTTP 429"},
			[]string{`{"sessionUpdate":"notice","severity":"info","title":"Model request failed; retrying (1 of 4)","description":"HTTP 429. Trying again in 250ms."}`}},
		{"a retry is not replayed as a notice", bridge.MapperOptions{Notices: true, Replay: true}, session.ModelRetry{Attempt: 1, MaxAttempts: 4, Wait: 250 * time.Millisecond, Reason: "HTTP 429"}, nil},
		{"B16 failed turn", bridge.MapperOptions{}, session.TurnEnded{Reason: session.StopError, Error: "provider boom"},
			[]string{`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\n\n[Model request failed: provider boom]\n\n"}}`}},
		{"B26 turn events", bridge.MapperOptions{}, session.TurnEnded{Reason: session.StopEndTurn}, nil},
		{"B26 turn start", bridge.MapperOptions{}, session.TurnStarted{}, nil},
		{"B25 live user message", bridge.MapperOptions{}, session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("hi")}}, nil},
		{"B23 replayed user message", bridge.MapperOptions{Replay: true}, session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("hi"), presentation.ImageBlock{MimeType: "image/png", Data: "iVBORw0KGgo="}, presentation.Text("there")}},
			[]string{`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"hi"}}`, `{"sessionUpdate":"user_message_chunk","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}}`, `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"there"}}`}},
		{"B23 a steered message says so", bridge.MapperOptions{Replay: true}, session.UserMessage{Steered: true, Content: []presentation.ContentBlock{presentation.Text("hi"), presentation.ImageBlock{MimeType: "image/png", Data: "iVBORw0KGgo="}}},
			[]string{`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"hi"},"_meta":{"dsh-acp":{"steered":true}}}`, `{"sessionUpdate":"user_message_chunk","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},"_meta":{"dsh-acp":{"steered":true}}}`}},
		{"B23 replayed user message, an image with no data left out", bridge.MapperOptions{Replay: true}, session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("hi"), presentation.ImageBlock{}}},
			[]string{`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"hi"}}`}},
		{"B27 plan", bridge.MapperOptions{}, session.PlanUpdated{Entries: []session.PlanEntry{{Content: "a", Status: "pending"}, {Content: "b", Status: "completed", Priority: "high"}}},
			[]string{`{"sessionUpdate":"plan","entries":[{"content":"a","priority":"medium","status":"pending"},{"content":"b","priority":"high","status":"completed"}]}`}},
		{"B28 empty plan", bridge.MapperOptions{}, session.PlanUpdated{}, []string{`{"sessionUpdate":"plan","entries":[]}`}},
		{"usage", bridge.MapperOptions{ContextWindow: 131072}, session.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120},
			[]string{`{"sessionUpdate":"usage_update","used":120,"size":131072}`}},
		{"usage without a window", bridge.MapperOptions{}, session.Usage{PromptTokens: 100}, nil},
		{"context messages are the model's", bridge.MapperOptions{}, session.ContextMessage{Message: registry.UserContext("x")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := encode(t, bridge.NewMapper(tt.opts).Map(ev(tt.payload)))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("updates =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestMapperToolCards(t *testing.T) {
	readView := presentation.GenericCallView{Title: "Read " + cwd + "/src/a.ts (from line 12)", Kind: presentation.KindRead,
		Locations: []presentation.FileLocation{{Path: cwd + "/src/a.ts", Line: 12}}}
	editView := presentation.DiffCallView{Title: "Edit src/b.ts", Diffs: []presentation.FileDiff{presentation.ReplaceDiff("src/b.ts", "x", "y")},
		Locations: []presentation.FileLocation{{Path: "src/b.ts"}}}
	bash := presentation.TerminalCallView{Title: "echo hi", Description: "Greet"}
	// The arguments each call was made with: rawInput is always these,
	// whatever the card (B17, issue 7 item 6).
	const (
		bashArgs = `{"command":"echo hi","description":"Greet"}`
		readArgs = `{"file_path":"src/a.ts","offset":12}`
	)
	tests := []struct {
		name   string
		opts   bridge.MapperOptions
		events []session.Payload
		want   []string
	}{
		{
			name: "B17 B33 a presenter-less call: name, other, raw input; B20 completed with text",
			opts: bridge.MapperOptions{Cwd: cwd},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "bash", Arguments: `{"command":"ls"}`},
				session.ToolResult{CallID: "c1", Content: []presentation.ContentBlock{presentation.Text("a.txt")}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"bash","kind":"other","status":"pending","name":"bash","rawInput":{"command":"ls"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"a.txt"}}]}`,
			},
		},
		{
			name: "B18 B19 B20 B22 malformed arguments as {\"_raw\": text}, none as {}; failure, dropped blocks",
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "x", Arguments: `{oops`},
				session.ToolCall{CallID: "c2", Name: "y", Arguments: ``},
				session.ToolResult{CallID: "c1", IsError: true, Content: []presentation.ContentBlock{presentation.Text("Error: no")}},
				session.ToolResult{CallID: "c2", Content: []presentation.ContentBlock{presentation.UnknownBlock{Type: "audio", JSON: `{"type":"audio"}`}}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"x","kind":"other","status":"pending","name":"x","rawInput":{"_raw":"{oops"}}`,
				`{"sessionUpdate":"tool_call","toolCallId":"c2","title":"y","kind":"other","status":"pending","name":"y","rawInput":{}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"Error: no"}}]}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"completed","content":[]}`,
			},
		},
		{
			name: "B32 a result for a call never announced is dropped (the editor would invent a card); B35 a second result shows raw content",
			events: []session.Payload{
				session.ToolResult{CallID: "ghost", Content: []presentation.ContentBlock{presentation.Text("late")}},
				session.ToolCall{CallID: "c1", Name: "x", View: presentation.GenericCallView{Title: "X"}},
				session.ToolResult{CallID: "c1", View: presentation.GenericResultView{Title: "done"}, Content: []presentation.ContentBlock{presentation.Text("one")}},
				session.ToolResult{CallID: "c1", View: presentation.GenericResultView{Title: "again"}, Content: []presentation.ContentBlock{presentation.Text("two")}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"X","kind":"other","status":"pending","name":"x","rawInput":{}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"one"}}],"title":"done"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"two"}}]}`,
			},
		},
		{
			name: "B40 B57 read: relative title, absolute location, 0-based row, in progress",
			opts: bridge.MapperOptions{Cwd: cwd},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "read", Arguments: readArgs, View: readView},
				session.ToolStarted{CallID: "c1"},
				session.ToolStarted{CallID: "ghost"},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read src/a.ts (from line 12)","kind":"read","status":"pending","name":"read","rawInput":{"file_path":"src/a.ts","offset":12},"locations":[{"path":"/home/u/proj/src/a.ts","line":11}]}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"in_progress"}`,
			},
		},
		{
			name: "B40 B53 B58 edit: diff card with absolute paths; the applied hunk replaces it",
			opts: bridge.MapperOptions{Cwd: cwd},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "edit", Arguments: `{"file_path":"src/b.ts","old_string":"x","new_string":"y"}`, View: editView},
				session.ToolResult{CallID: "c1", View: presentation.DiffResultView{Title: "Edit src/b.ts", Diffs: []presentation.FileDiff{presentation.ReplaceDiff("src/b.ts", "a\nOLD\nb", "a\nNEW\nb")}}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Edit src/b.ts","kind":"edit","status":"pending","name":"edit","rawInput":{"file_path":"src/b.ts","old_string":"x","new_string":"y"},"locations":[{"path":"/home/u/proj/src/b.ts"}],"content":[{"type":"diff","path":"/home/u/proj/src/b.ts","oldText":"x","newText":"y"}]}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"diff","path":"/home/u/proj/src/b.ts","oldText":"a\nOLD\nb","newText":"a\nNEW\nb"}],"title":"Edit src/b.ts"}`,
			},
		},
		{
			name: "B51 B52 B56 write: new file diff, title from the diff path; empty diffs send no content",
			opts: bridge.MapperOptions{Cwd: cwd},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "write", View: presentation.DiffCallView{Title: "Write " + cwd + "/a.txt", Diffs: []presentation.FileDiff{presentation.NewFileDiff(cwd+"/a.txt", "hi\n")}}},
				session.ToolCall{CallID: "c2", Name: "write", View: presentation.DiffCallView{Title: "Write b"}},
				session.ToolResult{CallID: "c2", View: presentation.DiffResultView{}},
				session.ToolResult{CallID: "c1", IsError: true, Content: []presentation.ContentBlock{presentation.Text("Error: disk full")}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Write a.txt","kind":"edit","status":"pending","name":"write","rawInput":{},"content":[{"type":"diff","path":"/home/u/proj/a.txt","oldText":null,"newText":"hi\n"}]}`,
				`{"sessionUpdate":"tool_call","toolCallId":"c2","title":"Write b","kind":"edit","status":"pending","name":"write","rawInput":{}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"completed"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"Error: disk full"}}]}`,
			},
		},
		{
			name: "B41 B97 terminal on: terminal block, info, streamed output, exit",
			opts: bridge.MapperOptions{Cwd: cwd, Terminal: true},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "bash", Arguments: bashArgs, View: bash},
				session.ToolOutput{CallID: "c1", Output: "h"},
				session.ToolOutput{CallID: "c1", Output: "i\n"},
				session.ToolResult{CallID: "c1", View: presentation.TerminalResultView{Output: "hi\n", ExitCode: code(0)}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"echo hi","kind":"execute","status":"pending","name":"bash","rawInput":{"command":"echo hi","description":"Greet"},"content":[{"type":"content","content":{"type":"text","text":"Greet"}},{"type":"terminal","terminalId":"c1"}],"_meta":{"terminal_info":{"terminal_id":"c1","cwd":"/home/u/proj"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","_meta":{"terminal_output":{"terminal_id":"c1","data":"h"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","_meta":{"terminal_output":{"terminal_id":"c1","data":"i\n"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","_meta":{"terminal_output":{"terminal_id":"c1","data":""},"terminal_exit":{"terminal_id":"c1","exit_code":0}}}`,
			},
		},
		{
			name: "a secret split across output pieces is held back until whole; the rest shows at the end",
			opts: bridge.MapperOptions{Cwd: cwd, Terminal: true, Redactor: secrets.NewRedactor("sk-live-0123456789")},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "bash", Arguments: bashArgs, View: bash},
				session.ToolOutput{CallID: "c1", Output: "key: sk-li"},
				session.ToolOutput{CallID: "c1", Output: "ve"},
				session.ToolOutput{CallID: "c1", Output: "-0123456789\nnext sk-"},
				session.ToolResult{CallID: "c1", View: presentation.TerminalResultView{Output: "key: sk-live-0123456789\nnext sk-", ExitCode: code(0)}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"echo hi","kind":"execute","status":"pending","name":"bash","rawInput":{"command":"echo hi","description":"Greet"},"content":[{"type":"content","content":{"type":"text","text":"Greet"}},{"type":"terminal","terminalId":"c1"}],"_meta":{"terminal_info":{"terminal_id":"c1","cwd":"/home/u/proj"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","_meta":{"terminal_output":{"terminal_id":"c1","data":"key: "}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","_meta":{"terminal_output":{"terminal_id":"c1","data":"sk-live-0123456789\nnext "}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","_meta":{"terminal_output":{"terminal_id":"c1","data":"sk-"},"terminal_exit":{"terminal_id":"c1","exit_code":0}}}`,
			},
		},
		{
			name: "B44 B45 B48 terminal on, not streamed: output, signal, title; no exit when unknown",
			opts: bridge.MapperOptions{Cwd: cwd, Terminal: true},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "bash", Arguments: `{"command":"sleep 9","workdir":"/abs"}`, View: presentation.TerminalCallView{Title: "sleep 9", Cwd: "/abs"}},
				session.ToolCall{CallID: "c2", Name: "bash", Arguments: `{"command":"true","workdir":"sub"}`, View: presentation.TerminalCallView{Title: "true", Cwd: "sub"}},
				session.ToolResult{CallID: "c1", View: presentation.TerminalResultView{Title: "slept", Output: "gone\n", Signal: "SIGKILL"}},
				session.ToolResult{CallID: "c2", View: presentation.TerminalResultView{}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"sleep 9","kind":"execute","status":"pending","name":"bash","rawInput":{"command":"sleep 9","workdir":"/abs"},"content":[{"type":"terminal","terminalId":"c1"}],"_meta":{"terminal_info":{"terminal_id":"c1","cwd":"/abs"}}}`,
				`{"sessionUpdate":"tool_call","toolCallId":"c2","title":"true","kind":"execute","status":"pending","name":"bash","rawInput":{"command":"true","workdir":"sub"},"content":[{"type":"terminal","terminalId":"c2"}],"_meta":{"terminal_info":{"terminal_id":"c2","cwd":"/home/u/proj/sub"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"failed","title":"slept","_meta":{"terminal_output":{"terminal_id":"c1","data":"gone\n"},"terminal_exit":{"terminal_id":"c1","signal":"SIGKILL"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"completed","_meta":{"terminal_output":{"terminal_id":"c2","data":""}}}`,
			},
		},
		{
			name: "B46 B49 B50 terminal off: bare execute card, fenced console output streamed and final",
			opts: bridge.MapperOptions{Cwd: cwd},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "bash", Arguments: bashArgs, View: bash},
				session.ToolCall{CallID: "c2", Name: "bash", Arguments: `{"command":"ls"}`, View: presentation.TerminalCallView{Title: "ls"}},
				session.ToolOutput{CallID: "c1", Output: "hi\n"},
				session.ToolResult{CallID: "c1", View: presentation.TerminalResultView{Title: "greeted", Output: "hi\n", ExitCode: code(0)}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"echo hi","kind":"execute","status":"pending","name":"bash","rawInput":{"command":"echo hi","description":"Greet"},"content":[{"type":"content","content":{"type":"text","text":"Greet"}}]}`,
				`{"sessionUpdate":"tool_call","toolCallId":"c2","title":"ls","kind":"execute","status":"pending","name":"bash","rawInput":{"command":"ls"}}`,
				"{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c1\",\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"```console\\nhi\\n```\"}}]}",
				"{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c1\",\"status\":\"completed\",\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"```console\\nhi\\n```\"}}],\"title\":\"greeted\"}",
			},
		},
		{
			name: "issue 17.1 terminal off: a failed command is failed and its text ends with how it ended",
			opts: bridge.MapperOptions{Cwd: cwd},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "bash", Arguments: `{"command":"exit 3"}`, View: presentation.TerminalCallView{Title: "exit 3"}},
				session.ToolCall{CallID: "c2", Name: "bash", Arguments: `{"command":"sleep 9"}`, View: presentation.TerminalCallView{Title: "sleep 9"}},
				session.ToolCall{CallID: "c3", Name: "bash", Arguments: `{"command":"sleep 900"}`, View: presentation.TerminalCallView{Title: "sleep 900"}},
				session.ToolResult{CallID: "c1", View: presentation.TerminalResultView{Output: "out\n[stderr]\nerr\n", ExitCode: code(3)}},
				session.ToolResult{CallID: "c2", View: presentation.TerminalResultView{Output: "(no output)", Signal: "SIGTERM"}},
				session.ToolResult{CallID: "c3", View: presentation.TerminalResultView{Output: "(no output)", Signal: "SIGKILL", Timeout: 120 * time.Second}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"exit 3","kind":"execute","status":"pending","name":"bash","rawInput":{"command":"exit 3"}}`,
				`{"sessionUpdate":"tool_call","toolCallId":"c2","title":"sleep 9","kind":"execute","status":"pending","name":"bash","rawInput":{"command":"sleep 9"}}`,
				`{"sessionUpdate":"tool_call","toolCallId":"c3","title":"sleep 900","kind":"execute","status":"pending","name":"bash","rawInput":{"command":"sleep 900"}}`,
				"{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c1\",\"status\":\"failed\",\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"```console\\nout\\n[stderr]\\nerr\\n```\\nexit code 3\"}}]}",
				"{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c2\",\"status\":\"failed\",\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"```console\\n(no output)\\n```\\nkilled by SIGTERM\"}}]}",
				"{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"c3\",\"status\":\"failed\",\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"```console\\n(no output)\\n```\\ntimed out after 120 s\"}}]}",
			},
		},
		{
			name: "issue 17.1 terminal on: a failed command is failed and keeps its terminal exit",
			opts: bridge.MapperOptions{Cwd: cwd, Terminal: true},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "bash", Arguments: `{"command":"exit 3"}`, View: presentation.TerminalCallView{Title: "exit 3"}},
				session.ToolResult{CallID: "c1", View: presentation.TerminalResultView{Output: "out\n", ExitCode: code(3)}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"exit 3","kind":"execute","status":"pending","name":"bash","rawInput":{"command":"exit 3"},"content":[{"type":"terminal","terminalId":"c1"}],"_meta":{"terminal_info":{"terminal_id":"c1","cwd":"/home/u/proj"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"failed","_meta":{"terminal_output":{"terminal_id":"c1","data":"out\n"},"terminal_exit":{"terminal_id":"c1","exit_code":3}}}`,
			},
		},
		{
			name: "issue 17.1 a generic card its tool marks failed is failed",
			opts: bridge.MapperOptions{Cwd: cwd},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "bash", View: presentation.GenericCallView{Title: "Read nope", Kind: presentation.KindRead}},
				session.ToolResult{CallID: "c1", View: presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text("no\nexit code 1")}, Failed: true}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read nope","kind":"read","status":"pending","name":"bash","rawInput":{}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"no\nexit code 1"}}]}`,
			},
		},
		{
			name: "B47 orphan guard: a terminal result for a generic call shows raw content",
			opts: bridge.MapperOptions{Terminal: true},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "x", View: presentation.GenericCallView{Title: "X"}},
				session.ToolOutput{CallID: "c1", Output: "ignored"},
				session.ToolResult{CallID: "c1", View: presentation.TerminalResultView{Output: "o"}, Content: []presentation.ContentBlock{presentation.Text("raw")}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"X","kind":"other","status":"pending","name":"x","rawInput":{}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"raw"}}]}`,
			},
		},
		{
			name: "B59 B60 B61 titles: outside stays, sibling-like names are inside",
			opts: bridge.MapperOptions{Cwd: cwd},
			events: []session.Payload{
				session.ToolCall{CallID: "c1", Name: "read", View: presentation.GenericCallView{Title: "Read /etc/passwd", Kind: presentation.KindRead, Locations: []presentation.FileLocation{{Path: "/etc/passwd"}}}},
				session.ToolCall{CallID: "c2", Name: "read", View: presentation.GenericCallView{Title: "Read " + cwd + "/..cache/x.ts", Kind: presentation.KindRead, Locations: []presentation.FileLocation{{Path: cwd + "/..cache/x.ts"}}}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read /etc/passwd","kind":"read","status":"pending","name":"read","rawInput":{},"locations":[{"path":"/etc/passwd"}]}`,
				`{"sessionUpdate":"tool_call","toolCallId":"c2","title":"Read ..cache/x.ts","kind":"read","status":"pending","name":"read","rawInput":{},"locations":[{"path":"/home/u/proj/..cache/x.ts"}]}`,
			},
		},
		{
			name: "read and search result cards",
			opts: bridge.MapperOptions{Cwd: cwd},
			events: []session.Payload{
				session.ToolCall{CallID: "r", Name: "read", View: readView},
				session.ToolResult{CallID: "r", View: presentation.ReadResultView{Title: "Read src/a.ts", Path: "src/a.ts", Offset: 12, Content: "x := 1\n", Lang: "go"}},
				session.ToolCall{CallID: "g", Name: "grep", View: presentation.GenericCallView{Title: "Grep x", Kind: presentation.KindSearch}},
				session.ToolResult{CallID: "g", View: presentation.SearchMatchesView{Files: []presentation.SearchFile{{Path: "a.go", Matches: []presentation.SearchMatch{{LineNumber: 3, Line: "x := 1"}}}}, Truncated: true, Total: 9}},
				session.ToolCall{CallID: "p", Name: "glob", View: presentation.GenericCallView{Title: "Glob *.go", Kind: presentation.KindSearch}},
				session.ToolResult{CallID: "p", View: presentation.SearchPathsView{Paths: []string{"a.go", "b.go"}, Total: 2}},
			},
			want: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"r","title":"Read src/a.ts (from line 12)","kind":"read","status":"pending","name":"read","rawInput":{},"locations":[{"path":"/home/u/proj/src/a.ts","line":11}]}`,
				"{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"r\",\"status\":\"completed\",\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"```go\\nx := 1\\n```\"}}],\"title\":\"Read src/a.ts\"}",
				`{"sessionUpdate":"tool_call","toolCallId":"g","title":"Grep x","kind":"search","status":"pending","name":"grep","rawInput":{}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"g","status":"completed","content":[{"type":"content","content":{"type":"text","text":"a.go:3: x := 1\n… (9 matches in all; narrow the search to see the rest)"}}]}`,
				`{"sessionUpdate":"tool_call","toolCallId":"p","title":"Glob *.go","kind":"search","status":"pending","name":"glob","rawInput":{}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"p","status":"completed","content":[{"type":"content","content":{"type":"text","text":"a.go\nb.go"}}]}`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := bridge.NewMapper(tt.opts)
			var got []string
			for _, p := range tt.events {
				got = append(got, encode(t, m.Map(ev(p)))...)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("updates =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// badCall and badResult are cards outside their closed unions, as a bug
// would make them.
type (
	badCall   struct{ presentation.CallView }
	badResult struct{ presentation.ResultView }
)

// TestMapperFailsLoudly: B36 B38 B39: an event or card outside its union
// panics out of Map, so a test that makes one fails; the server recovers
// at its one boundary (liveSession.mapSafely) and shows Fallback.
func TestMapperFailsLoudly(t *testing.T) {
	tests := []struct {
		name   string
		before []session.Payload
		event  session.Payload
		panic  string
	}{
		{name: "call card", event: session.ToolCall{CallID: "c1", Name: "weird", View: badCall{}},
			panic: "unreachable variant: call card bridge_test.badCall"},
		{name: "result card", before: []session.Payload{session.ToolCall{CallID: "c1", Name: "read"}},
			event: session.ToolResult{CallID: "c1", View: badResult{}},
			panic: "unreachable variant: result card bridge_test.badResult"},
		{name: "event payload", event: nil, panic: "unreachable variant: event payload <nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := bridge.NewMapper(bridge.MapperOptions{})
			for _, p := range tt.before {
				m.Map(ev(p))
			}
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tt.panic) {
					t.Errorf("Map recovered %v; want a panic with %q", r, tt.panic)
				}
			}()
			m.Map(ev(tt.event))
		})
	}
}

// TestMapperFallback: what the boundary shows for an event whose mapping
// panicked: a call with the generic card, which the rest of the call then
// keeps (no terminal to complete), and a result with its raw content.
func TestMapperFallback(t *testing.T) {
	m := bridge.NewMapper(bridge.MapperOptions{Terminal: true})
	text := []presentation.ContentBlock{presentation.Text("out")}
	got := encode(t, m.Fallback(ev(session.ToolCall{CallID: "c1", Name: "weird", Arguments: `{"x":1}`, View: badCall{}})))
	got = append(got, encode(t, m.Map(ev(session.ToolOutput{CallID: "c1", Output: "live"})))...)
	got = append(got, encode(t, m.Map(ev(session.ToolResult{CallID: "c1", Content: text, View: presentation.TerminalResultView{Output: "out"}})))...)
	m.Map(ev(session.ToolCall{CallID: "c2", Name: "read"}))
	got = append(got, encode(t, m.Fallback(ev(session.ToolResult{CallID: "c2", Content: text, View: badResult{}})))...)
	got = append(got, encode(t, m.Fallback(ev(session.ToolResult{CallID: "never-shown", Content: text, View: badResult{}})))...)
	m.Map(ev(session.ToolCall{CallID: "c3", Name: "read"}))
	got = append(got, encode(t, m.Fallback(ev(session.ToolResult{CallID: "c3", Content: text, IsError: true, Code: registry.CodeAborted, View: badResult{}})))...)
	got = append(got, encode(t, m.Fallback(ev(nil)))...)
	want := []string{
		`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"weird","kind":"other","status":"pending","rawInput":{"x":1}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"out"}}]}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"completed","content":[{"type":"content","content":{"type":"text","text":"out"}}]}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c3","status":"failed","content":[{"type":"content","content":{"type":"text","text":"Stopped: the turn was cancelled while it ran."}}],"_meta":{"dsh-acp":{"stopped":true}}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("updates =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMapperIsDeterministic(t *testing.T) {
	// B66: replaying the same events gives the same updates; B65: no
	// update precedes its call.
	events := []session.Payload{
		session.ToolCall{CallID: "c1", Name: "bash", View: presentation.TerminalCallView{Title: "ls"}},
		session.ToolOutput{CallID: "c1", Output: "a\n"},
		session.ToolResult{CallID: "c1", View: presentation.TerminalResultView{Output: "a\n", ExitCode: code(0)}},
	}
	run := func() []string {
		m := bridge.NewMapper(bridge.MapperOptions{Cwd: cwd, Terminal: true})
		var out []string
		for _, p := range events {
			out = append(out, encode(t, m.Map(ev(p)))...)
		}
		return out
	}
	first, second := run(), run()
	if strings.Join(first, "\n") != strings.Join(second, "\n") {
		t.Errorf("replay differs")
	}
	if !strings.Contains(first[0], `"sessionUpdate":"tool_call"`) {
		t.Errorf("first update is not the call: %s", first[0])
	}
}

func TestMapperBoundsLiveOutputWithoutTheTerminal(t *testing.T) {
	// A client without the terminal convention is re-sent the output so
	// far with every update: only its tail, so a chatty command cannot
	// flood the editor.
	m := bridge.NewMapper(bridge.MapperOptions{Cwd: cwd})
	m.Map(ev(session.ToolCall{CallID: "c1", Name: "bash", View: presentation.TerminalCallView{Title: "yes"}}))
	line := strings.Repeat("y", 99) + "\n"
	var last string
	for range 1000 {
		got := encode(t, m.Map(ev(session.ToolOutput{CallID: "c1", Output: line})))
		last = got[0]
	}
	if len(last) > 20<<10 {
		t.Errorf("the live update holds %d bytes", len(last))
	}
	if !strings.Contains(last, "… (earlier output not shown)") || !strings.Contains(last, line[:50]) {
		t.Errorf("update = %.200s", last)
	}
}
