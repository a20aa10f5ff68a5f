package session_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

func ptr[T any](v T) *T { return &v }

// sampleContent holds one block of every content type.
var sampleContent = []presentation.ContentBlock{
	presentation.Text("hello \"world\" <ok> & ünïcode\n"),
	presentation.ImageBlock{MimeType: "image/png", Data: "iVBORw0KGgo="},
	presentation.UnknownBlock{Type: "audio", JSON: `{"type":"audio","data":"AA=="}`},
}

// sampleCallViews holds every pending-call card, full and empty.
func sampleCallViews() []presentation.CallView {
	return []presentation.CallView{
		presentation.GenericCallView{
			Title: "Fetch https://example.com", Kind: presentation.KindFetch, Content: sampleContent,
			Locations: []presentation.FileLocation{{Path: "a.go", Line: 3}, {Path: "/abs/b.go"}},
		},
		presentation.GenericCallView{},
		presentation.TerminalCallView{Title: "go test ./...", Description: "run the tests", Cwd: "sub"},
		presentation.TerminalCallView{},
		presentation.DiffCallView{
			Title: "Edit a.go",
			Diffs: []presentation.FileDiff{
				presentation.ReplaceDiff("a.go", "old\nline", "new\nline"),
				presentation.NewFileDiff("b.go", "package b"),
				{Path: "empty-old.go", OldText: ptr(""), NewText: ""},
				{Path: "hunk.go", OldText: ptr("a\r\nb"), NewText: "a\r\nB", Line: 2},
			},
			Locations: []presentation.FileLocation{{Path: "a.go", Line: 1}},
		},
		presentation.DiffCallView{},
	}
}

// sampleResultViews holds every result card, full and empty.
func sampleResultViews() []presentation.ResultView {
	return []presentation.ResultView{
		presentation.GenericResultView{Title: "done", Content: sampleContent},
		presentation.GenericResultView{},
		presentation.TerminalResultView{Title: "make", Output: "ok\n", ExitCode: ptr(0)},
		presentation.TerminalResultView{Title: "sleep", Output: "", Signal: "SIGKILL"},
		presentation.TerminalResultView{Title: "slow", Output: "x\n", Signal: "SIGTERM", Timeout: 1500 * time.Millisecond},
		presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text("```console\nno\n```\nexit code 1")}, Failed: true},
		presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text("Plan approved — implementing")}, Summary: true},
		presentation.DiffResultView{Title: "Edited a.go", Diffs: []presentation.FileDiff{
			presentation.ReplaceDiff("a.go", "a", "b"), presentation.ReplaceDiff("a.go", "", "inserted"),
			{Path: "a.go", OldText: ptr("x\ny\n"), NewText: "x\nY\n", Line: 12},
		}, Locations: []presentation.FileLocation{{Path: "a.go", Line: 12}}},
		presentation.DiffResultView{Title: "Edit b.go", Diffs: []presentation.FileDiff{presentation.ReplaceDiff("b.go", "x", "y")},
			Notes: "gopls reports 1 new error in b.go after this change:\nb.go:3:1: undefined: y"},
		presentation.ReadResultView{
			Title: "Read a.go", Path: "/w/a.go", Offset: 10, TotalLines: 200, Lang: "go", Content: "x := 1",
			Lines: []presentation.ReadFileLine{{Number: 10, Text: "x := 1"}, {Number: 11, Text: ""}},
		},
		presentation.SearchMatchesView{Title: "grep foo", Truncated: true, Total: 7, Files: []presentation.SearchFile{
			{Path: "a.go", Matches: []presentation.SearchMatch{{LineNumber: 1, Line: "foo()"}}},
			{Path: "b.go"},
		}},
		presentation.SearchPathsView{Title: "glob *.go", Paths: []string{"a.go", "b.go"}, Total: 2},
		presentation.SearchPathsView{},
	}
}

// samplePayloads holds every payload type, most of them twice: with every
// field set, and as the zero value.
func samplePayloads() []session.Payload {
	payloads := []session.Payload{
		session.TurnStarted{},
		session.UserMessage{Content: sampleContent},
		session.UserMessage{},
		session.UserMessage{Content: sampleContent, Steered: true},
		session.AssistantChunk{Text: "Let me", Reasoning: true},
		session.AssistantChunk{Text: "Hello"},
		session.AssistantMessage{Text: "Done.", Reasoning: "thought", ToolCalls: []session.ToolCallRef{
			{ID: "call_1", Name: "bash", Arguments: `{"command":"ls"}`},
			{ID: "call_2", Name: "read", Arguments: `{bad json`},
		}},
		session.AssistantMessage{},
		session.ToolCall{CallID: "call_1", Name: "bash", Arguments: `{"command":"ls"}`},
		session.ToolStarted{CallID: "call_1"},
		session.ToolOutput{CallID: "call_1", Output: "line\n"},
		session.ToolResult{CallID: "call_1", CallSeq: 4, Content: sampleContent, IsError: true, Code: "TIMEOUT", Meta: `{"k":1}`},
		session.ContextMessage{Message: registry.ContextMessage{Content: sampleContent, Source: registry.MessageSource{Kind: "plugin", Plugin: "policy"}}},
		session.ContextMessage{Message: registry.UserContext("remember")},
		session.PlanUpdated{Entries: []session.PlanEntry{{Content: "write tests", Status: "in_progress", Priority: "high"}, {Content: "ship"}}},
		session.PlanUpdated{},
		session.PlanUpdated{Markdown: "# Plan\n\n1. Read the code\n2. Change it"},
		session.ModelRetry{Attempt: 2, MaxAttempts: 5, Wait: 1500 * time.Millisecond, Reason: "429 Too Many Requests"},
		session.Usage{PromptTokens: 1200, CompletionTokens: 300, TotalTokens: 1500, CachedPromptTokens: 1024,
			Model: "deepseek-v4-flash", ContextWindow: 128000, Cost: 0.000123456789, Currency: "USD"},
		session.Usage{},
		session.TitleChanged{Title: "Fix the flaky test"},
		session.SettingChanged{Setting: "model", Value: "deepseek-v4-pro"},
		session.Compacted{Summary: "We fixed the bug.", Through: 42, Turns: 3, Started: 40},
		session.CompactionStarted{},
		session.CompactionFailed{Started: 40, Error: "the model failed"},
		session.CompactionFailed{Started: 41, Cancelled: true},
		session.CompactionFailed{},
		session.CommandRan{Line: "/permissions", Reply: "No rules."},
		session.Rewound{From: 12, Reply: "Reverted 1 file."},
		session.Rewound{},
		session.Notice{Text: "MCP server docs: exited at start"},
		session.FilesRestored{Files: []session.FileRestored{{Path: "/w/a", Before: ptr("new\n"), After: ptr("old\n")}, {Path: "/w/b", After: ptr("")}, {Path: "/w/c.bin", Before: ptr(""), Binary: true}}},
		session.FilesRestored{},
		session.TurnEnded{Reason: session.StopEndTurn},
		session.TurnEnded{Reason: session.StopError, Error: "model: 500"},
		session.SubagentStarted{ID: "call_9.1", CallID: "call_9", Type: "explore", Description: "find the parser"},
		session.SubagentStarted{},
		session.SubagentEvent{ID: "call_9.1", CallID: "call_9", Payload: session.ToolCall{CallID: "c", Name: "read", Arguments: "{}", View: sampleCallViews()[0]}},
		session.SubagentEvent{ID: "a", CallID: "b", Payload: session.SubagentEvent{ID: "c", CallID: "d", Payload: session.TurnStarted{}}},
		session.SubagentEnded{ID: "call_9.1", CallID: "call_9", Reason: session.StopError, Error: "model: 500"},
		session.SubagentEnded{},
	}
	for _, v := range sampleCallViews() {
		payloads = append(payloads, session.ToolCall{CallID: "c", Name: "t", Arguments: "{}", View: v})
	}
	for _, v := range sampleResultViews() {
		payloads = append(payloads, session.ToolResult{CallID: "c", CallSeq: 1, Content: []presentation.ContentBlock{presentation.Text("x")}, View: v})
	}
	return payloads
}

func TestCodecRoundTripsEveryPayload(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 123456789, time.FixedZone("CET", 3600))
	for i, p := range samplePayloads() {
		ev := session.Event{Seq: int64(i + 1), Time: at, Turn: i % 3, Payload: p}
		line, err := session.EncodeEvent(ev)
		if err != nil {
			t.Fatalf("encode %T: %v", p, err)
		}
		if strings.ContainsRune(string(line), '\n') {
			t.Errorf("encoded %T holds a newline: %s", p, line)
		}
		back, err := session.DecodeEvent(append(line, '\n'))
		if err != nil {
			t.Fatalf("decode %T from %s: %v", p, line, err)
		}
		if back.Seq != ev.Seq || back.Turn != ev.Turn || !back.Time.Equal(ev.Time) {
			t.Errorf("%T envelope = %d/%d/%v, want %d/%d/%v", p, back.Seq, back.Turn, back.Time, ev.Seq, ev.Turn, ev.Time)
		}
		if !reflect.DeepEqual(back.Payload, ev.Payload) {
			t.Errorf("%T round trip\n got %#v\nwant %#v\nline %s", p, back.Payload, ev.Payload, line)
		}
	}
}

// TestCodecCoversEveryType fails when a payload, card or content type is
// added without a sample above (and so without a round trip through the
// codec): it finds the members of each closed union in the source.
func TestCodecCoversEveryType(t *testing.T) {
	sampled := map[string]bool{}
	add := func(v any) { sampled[reflect.TypeOf(v).String()] = true }
	for _, p := range samplePayloads() {
		add(p)
	}
	for _, v := range sampleCallViews() {
		add(v)
	}
	for _, v := range sampleResultViews() {
		add(v)
	}
	for _, b := range sampleContent {
		add(b)
	}
	unions := []struct{ dir, pkg, marker string }{
		{".", "session", "isPayload"},
		{"../presentation", "presentation", "isCallView"},
		{"../presentation", "presentation", "isResultView"},
		{"../presentation", "presentation", "isContentBlock"},
	}
	for _, u := range unions {
		members := unionMembers(t, u.dir, u.marker)
		if len(members) == 0 {
			t.Fatalf("found no %s methods in %s", u.marker, u.dir)
		}
		for _, m := range members {
			if !sampled[u.pkg+"."+m] {
				t.Errorf("%s.%s (a %s) has no sample in codec_test.go: add one, and its case to the codec", u.pkg, m, u.marker)
			}
		}
	}
}

// unionMembers returns the receiver types of the methods named marker in
// the non-test Go files of dir.
func unionMembers(t *testing.T, dir, marker string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var members []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != marker {
				continue
			}
			if id, ok := fn.Recv.List[0].Type.(*ast.Ident); ok {
				members = append(members, id.Name)
			}
		}
	}
	slices.Sort(members)
	return members
}

// TestCodecWireForm pins the names on disk: old logs must keep loading
// whatever the Go fields are called.
func TestCodecWireForm(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 5, time.UTC)
	tests := []struct {
		payload session.Payload
		want    string
	}{
		{session.TurnStarted{}, `{"seq":7,"time":"2026-11-29T12:00:00.000000005Z","turn":2,"kind":"turn/start","data":{}}`},
		{
			session.ToolCall{CallID: "c1", Name: "bash", Arguments: `{"command":"ls"}`, View: presentation.TerminalCallView{Title: "ls", Cwd: "src"}},
			`{"seq":7,"time":"2026-11-29T12:00:00.000000005Z","turn":2,"kind":"tool/call","data":{"call_id":"c1","name":"bash","arguments":"{\"command\":\"ls\"}","view":{"card":"terminal","title":"ls","cwd":"src"}}}`,
		},
		{
			session.ToolResult{CallID: "c1", CallSeq: 6, Content: []presentation.ContentBlock{presentation.Text("ok")}, View: presentation.SearchPathsView{Paths: []string{"a"}, Total: 1}},
			`{"seq":7,"time":"2026-11-29T12:00:00.000000005Z","turn":2,"kind":"tool/result","data":{"call_id":"c1","call_seq":6,"content":[{"type":"text","text":"ok"}],"view":{"card":"search_paths","paths":["a"],"total":1}}}`,
		},
		{session.ModelRetry{Attempt: 1, Wait: time.Second}, `{"seq":7,"time":"2026-11-29T12:00:00.000000005Z","turn":2,"kind":"llm/retry","data":{"attempt":1,"wait_ns":1000000000}}`},
		{session.Rewound{From: 3, Reply: "Dropped."}, `{"seq":7,"time":"2026-11-29T12:00:00.000000005Z","turn":2,"kind":"conversation/rewound","data":{"from":3,"reply":"Dropped."}}`},
	}
	for _, tt := range tests {
		line, err := session.EncodeEvent(session.Event{Seq: 7, Time: at, Turn: 2, Payload: tt.payload})
		if err != nil {
			t.Fatal(err)
		}
		if string(line) != tt.want {
			t.Errorf("%T encodes as\n%s\nwant\n%s", tt.payload, line, tt.want)
		}
	}
}

func TestDecodeEventErrors(t *testing.T) {
	tests := []struct {
		name        string
		line        string
		unknownKind bool
	}{
		{"not JSON", `{"seq":1,"ti`, false},
		{"not an object", `[1,2]`, false},
		{"unknown kind", `{"seq":1,"kind":"future/thing","data":{"x":1}}`, true},
		{"no kind", `{"seq":1,"data":{}}`, true},
		{"bad field type", `{"seq":1,"kind":"tool/output","data":{"call_id":7}}`, false},
		{"bad content", `{"seq":1,"kind":"user/message","data":{"content":[{"text":"no type"}]}}`, false},
		{"card without tag", `{"seq":1,"kind":"tool/call","data":{"view":{"title":"x"}}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := session.DecodeEvent([]byte(tt.line))
			if err == nil {
				t.Fatalf("DecodeEvent(%s) succeeded", tt.line)
			}
			if got := errors.Is(err, session.ErrUnknownKind); got != tt.unknownKind {
				t.Errorf("errors.Is(%v, ErrUnknownKind) = %v, want %v", err, got, tt.unknownKind)
			}
		})
	}
}

// TestDecodeEventDropsUnknownCards: a card from a newer build is dropped,
// and the event (say, a tool result the model must see) survives.
func TestDecodeEventDropsUnknownCards(t *testing.T) {
	ev, err := session.DecodeEvent([]byte(`{"seq":3,"kind":"tool/result","data":{"call_id":"c","content":[{"type":"text","text":"ok"}],"view":{"card":"hologram","x":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := ev.Payload.(session.ToolResult)
	if !ok || r.View != nil || r.CallID != "c" || presentation.JoinText(r.Content) != "ok" {
		t.Errorf("decoded %#v", ev.Payload)
	}
	ev, err = session.DecodeEvent([]byte(`{"seq":2,"kind":"tool/call","data":{"call_id":"c","view":{"card":"hologram"}}}`))
	if err != nil || ev.Payload.(session.ToolCall).View != nil {
		t.Errorf("decoded %#v, %v", ev.Payload, err)
	}
}

func TestEncodeEventRejectsInvalidContent(t *testing.T) {
	ev := session.Event{Seq: 1, Payload: session.UserMessage{Content: []presentation.ContentBlock{presentation.UnknownBlock{Type: "x", JSON: "{"}}}}
	if _, err := session.EncodeEvent(ev); err == nil {
		t.Error("encoded an UnknownBlock holding invalid JSON")
	}
}

// TestCodecTestSeesSources guards the source scan itself: the test runs
// in the package directory.
func TestCodecTestSeesSources(t *testing.T) {
	if _, err := os.Stat("payload.go"); err != nil {
		t.Fatalf("codec tests must run in session/: %v", err)
	}
}
