package bridge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/llm"
)

// fsModel answers the prompt "go" with its calls, and everything else
// (the calls' results included) with "ok". It keeps the tool results it
// was sent.
type fsModel struct {
	calls []llm.ToolCall

	mu      sync.Mutex
	results []string
}

func (m *fsModel) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleUser && last.Content == "go" {
		return callStream(ctx, m.calls...), nil
	}
	m.mu.Lock()
	m.results = append(m.results, toolResults(req))
	m.mu.Unlock()
	return textStream(ctx, "ok"), nil
}

// told is every tool result the model was sent.
func (m *fsModel) told() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.results, "\n")
}

// fsEnv is one case's connection, workspace and outside directory.
type fsEnv struct {
	*env
	s       string
	outside string
	model   *fsModel

	mu    sync.Mutex
	asked []string // the tool call ids permission was asked for
}

// fsRequests lists the fs/* requests the server sent, as "method path".
func (f *fsEnv) fsRequests() []string {
	var out []string
	for _, fr := range f.c.Frames() {
		if strings.HasPrefix(fr.Method, "fs/") {
			var p struct {
				Path string `json:"path"`
			}
			_ = json.Unmarshal(fr.Params, &p)
			out = append(out, fr.Method+" "+p.Path)
		}
	}
	return out
}

// askedFor returns the tool call ids permission was asked for.
func (f *fsEnv) askedFor() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.asked...)
}

// TestBadInputFiles is the file side of the bad-input suite (issue 7 items
// 1, 3, 4 and 12): a named pipe, a glob that leaves the workspace, a
// dangling link to a file outside, a NUL byte in a path. Each case makes
// the model call tools on it, expects a clear refusal or a permission
// request (which the client rejects, unless the case allows it), and then
// the next prompt and a new session must be served.
func TestBadInputFiles(t *testing.T) {
	type testCase struct {
		name  string
		caps  string // plainInitialize when empty
		allow bool   // answer permission requests with allow-once
		// setup prepares the workspace and returns the model's calls.
		setup func(t *testing.T, f *fsEnv) []llm.ToolCall
		check func(t *testing.T, f *fsEnv)
	}
	// failedWith requires the calls to fail with want in the model's
	// results.
	failedWith := func(want string, ids ...string) func(*testing.T, *fsEnv) {
		return func(t *testing.T, f *fsEnv) {
			t.Helper()
			us := f.updates(f.s)
			for _, id := range ids {
				if st := finalStatus(forCall(us, id)); st != "failed" {
					t.Errorf("%s ended %q, want failed", id, st)
				}
			}
			if told := f.model.told(); strings.Count(told, want) < len(ids) {
				t.Errorf("the model was told %q, want %q for each of %v", told, want, ids)
			}
		}
	}
	pipeCalls := func(t *testing.T, f *fsEnv) []llm.ToolCall {
		mkfifo(t, filepath.Join(f.dir, "fifo"))
		return []llm.ToolCall{
			call("c_read", "read", map[string]any{"file_path": "fifo"}),
			call("c_write", "write", map[string]any{"file_path": "fifo", "content": "x\n"}),
			call("c_edit", "edit", map[string]any{"file_path": "fifo", "old_string": "", "new_string": "x"}),
			call("c_grep", "grep", map[string]any{"pattern": "x", "path": "fifo"}),
		}
	}
	pipeRefused := func(t *testing.T, f *fsEnv) {
		failedWith("fifo is not a regular file (named pipe); read, write and edit work on regular files only", "c_read", "c_write", "c_edit")(t, f)
		failedWith("fifo is not a regular file (named pipe): grep searches regular files and directories only", "c_grep")(t, f)
		if info, err := os.Lstat(filepath.Join(f.dir, "fifo")); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("the named pipe was replaced: %v", err)
		}
		if reqs := f.fsRequests(); len(reqs) != 0 {
			t.Errorf("the editor was asked about the pipe: %v", reqs)
		}
	}
	globOutside := func(pattern string) func(*testing.T, *fsEnv) []llm.ToolCall {
		return func(t *testing.T, f *fsEnv) []llm.ToolCall {
			writeFile(t, filepath.Join(f.outside, "secret-name.txt"), "x")
			return []llm.ToolCall{call("c_glob", "glob", map[string]any{"pattern": pattern})}
		}
	}
	globAsked := func(t *testing.T, f *fsEnv) {
		if asked := f.askedFor(); len(asked) != 1 || asked[0] != "c_glob" {
			t.Errorf("permission asked for %v, want [c_glob]", asked)
		}
		failedWith("", "c_glob")(t, f)
		if told := f.model.told(); strings.Contains(told, "secret-name") {
			t.Errorf("the outside directory was listed unasked: %q", told)
		}
	}
	dangle := func(t *testing.T, f *fsEnv) []llm.ToolCall {
		if err := os.Symlink(filepath.Join(f.outside, "new.txt"), filepath.Join(f.dir, "dangle")); err != nil {
			t.Fatal(err)
		}
		return []llm.ToolCall{call("c_write", "write", map[string]any{"file_path": "dangle", "content": "escaped\n"})}
	}
	nulCalls := func(t *testing.T, f *fsEnv) []llm.ToolCall {
		writeFile(t, filepath.Join(f.dir, "x"), "keep\n")
		return []llm.ToolCall{
			call("c_write", "write", map[string]any{"file_path": "a\x00../../x", "content": "clobbered\n"}),
			call("c_edit", "edit", map[string]any{"file_path": "a\x00../../x", "old_string": "keep", "new_string": "clobbered"}),
			call("c_read", "read", map[string]any{"file_path": "a\x00../../x"}),
			call("c_glob", "glob", map[string]any{"pattern": "a\x00../../*"}),
			call("c_bash", "bash", map[string]any{"command": "touch marker", "workdir": "a\x00../.."}),
		}
	}
	nulRefused := func(t *testing.T, f *fsEnv) {
		failedWith("contains a NUL byte", "c_write", "c_edit", "c_read", "c_glob", "c_bash")(t, f)
		if got := readFile(t, filepath.Join(f.dir, "x")); got != "keep\n" {
			t.Errorf("x holds %q", got)
		}
		if readFile(t, filepath.Join(f.dir, "marker")) != "<absent>" {
			t.Errorf("the command ran")
		}
		if reqs := f.fsRequests(); len(reqs) != 0 {
			t.Errorf("the editor was sent %v", reqs)
		}
		if asked := f.askedFor(); len(asked) != 0 {
			t.Errorf("permission asked for %v: an invalid path is refused outright", asked)
		}
	}

	tests := []testCase{
		// Item 1: a named pipe in the workspace.
		{name: "a named pipe", setup: pipeCalls, check: pipeRefused},
		{name: "a named pipe with editor fs", caps: zedInitialize, setup: pipeCalls, check: pipeRefused},
		{name: "a named pipe among the files grep and glob walk", setup: func(t *testing.T, f *fsEnv) []llm.ToolCall {
			writeFile(t, filepath.Join(f.dir, "a.txt"), "needle\n")
			mkfifo(t, filepath.Join(f.dir, "pipe.txt"))
			return []llm.ToolCall{
				call("c_grep", "grep", map[string]any{"pattern": "needle"}),
				call("c_glob", "glob", map[string]any{"pattern": "*.txt"}),
			}
		}, check: func(t *testing.T, f *fsEnv) {
			us := f.updates(f.s)
			for _, id := range []string{"c_grep", "c_glob"} {
				if st := finalStatus(forCall(us, id)); st != "completed" {
					t.Errorf("%s ended %q", id, st)
				}
			}
			if told := f.model.told(); !strings.Contains(told, "a.txt") || strings.Contains(told, "pipe.txt") {
				t.Errorf("the model was told %q", told)
			}
		}},

		// Item 3: a glob whose fixed leading directory is outside.
		{name: "glob ../outdir/* asks", setup: func(t *testing.T, f *fsEnv) []llm.ToolCall {
			return globOutside("../"+filepath.Base(f.outside)+"/*")(t, f)
		}, check: globAsked},
		{name: "glob of an absolute outside pattern asks", setup: func(t *testing.T, f *fsEnv) []llm.ToolCall {
			return globOutside(f.outside+"/secret*")(t, f)
		}, check: globAsked},
		{name: "glob sub/../../outdir/* asks", setup: func(t *testing.T, f *fsEnv) []llm.ToolCall {
			return globOutside("sub/../../"+filepath.Base(f.outside)+"/*")(t, f)
		}, check: globAsked},

		// Item 4: a dangling link to a file outside.
		{name: "write through a dangling link asks before the editor is sent anything", caps: zedInitialize, setup: dangle, check: func(t *testing.T, f *fsEnv) {
			if asked := f.askedFor(); len(asked) != 1 || asked[0] != "c_write" {
				t.Errorf("permission asked for %v, want [c_write]", asked)
			}
			failedWith("", "c_write")(t, f)
			if reqs := f.fsRequests(); len(reqs) != 0 {
				t.Errorf("the editor was sent %v", reqs)
			}
			if got := readFile(t, filepath.Join(f.outside, "new.txt")); got != "<absent>" {
				t.Errorf("the outside file was created: %q", got)
			}
		}},
		{name: "write through a dangling link, allowed, writes the outside file on disk", caps: zedInitialize, allow: true, setup: dangle, check: func(t *testing.T, f *fsEnv) {
			if asked := f.askedFor(); len(asked) != 1 {
				t.Errorf("permission asked for %v, want [c_write]", asked)
			}
			if st := finalStatus(forCall(f.updates(f.s), "c_write")); st != "completed" {
				t.Errorf("the allowed write ended %q", st)
			}
			for _, r := range f.fsRequests() {
				if strings.HasPrefix(r, "fs/write_text_file") {
					t.Errorf("the editor was sent %s for a file outside the workspace", r)
				}
			}
			if got := readFile(t, filepath.Join(f.outside, "new.txt")); got != "escaped\n" {
				t.Errorf("the outside file holds %q", got)
			}
			if info, err := os.Lstat(filepath.Join(f.dir, "dangle")); err != nil || info.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link was replaced: %v", err)
			}
		}},

		// Issue 7 item 5, issue 17 defect 4: a file the disk does not have
		// is new. The editor is not asked about it (acpx printed its own
		// "Resource not found" for every file a write created), even when
		// it would answer with a buffer never saved; the create goes
		// through the editor, which owns its buffers (docs/decisions.md).
		{name: "a file the disk does not have is new, and the editor is not asked for it", caps: zedInitialize, setup: func(t *testing.T, f *fsEnv) []llm.ToolCall {
			draft := filepath.Join(f.dir, "draft.txt")
			f.c.HandleReadTextFile(func(req acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
				if req.Path == draft {
					return acpsdk.ReadTextFileResponse{Content: "unsaved\n"}, nil
				}
				return acpsdk.ReadTextFileResponse{}, &acptest.RPCError{Code: -32002, Message: "Resource not found: " + req.Path}
			})
			f.c.HandleWriteTextFile(func(acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
				return acpsdk.WriteTextFileResponse{}, nil
			})
			return []llm.ToolCall{
				call("c_write", "write", map[string]any{"file_path": "draft.txt", "content": "replaced\n"}),
				call("c_new", "write", map[string]any{"file_path": "sub/brand-new.txt", "content": "hi\n"}),
				call("c_read", "read", map[string]any{"file_path": "missing.txt"}),
			}
		}, check: func(t *testing.T, f *fsEnv) {
			us := f.updates(f.s)
			for _, id := range []string{"c_write", "c_new"} {
				c := forCall(us, id)
				if finalStatus(c) != "completed" {
					t.Fatalf("%s ended %q", id, finalStatus(c))
				}
				if d := onlyDiff(t, c[len(c)-1]); d.OldText != nil {
					t.Errorf("%s's diff = %+v, want a new file", id, d)
				}
			}
			if !strings.Contains(f.model.told(), "Created draft.txt (1 line).") || !strings.Contains(f.model.told(), "missing.txt does not exist") {
				t.Errorf("the model was told %q", f.model.told())
			}
			var reads, writes []string
			for _, r := range f.fsRequests() {
				switch {
				case strings.HasPrefix(r, "fs/read_text_file"):
					reads = append(reads, r)
				case strings.HasPrefix(r, "fs/write_text_file"):
					writes = append(writes, r)
				}
			}
			if len(reads) != 0 {
				t.Errorf("the editor was asked %v for files the disk does not have", reads)
			}
			if len(writes) != 2 {
				t.Errorf("writes %v, want the two creates through the editor", writes)
			}
		}},

		// Item 12: a NUL byte in a path.
		{name: "a NUL byte in a path", setup: nulCalls, check: nulRefused},
		{name: "a NUL byte in a path with editor fs", caps: zedInitialize, setup: nulCalls, check: nulRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fsEnv{model: &fsModel{}, outside: tempDir(t)}
			f.env = newEnv(t, withProvider(f.model))
			if err := os.MkdirAll(filepath.Join(f.dir, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			f.c.HandlePermission(func(req acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
				f.mu.Lock()
				f.asked = append(f.asked, string(req.ToolCall.ToolCallId))
				f.mu.Unlock()
				if tt.allow {
					return selected("allow-once")
				}
				return selected("reject-once")
			})
			f.model.calls = tt.setup(t, f)
			caps := tt.caps
			if caps == "" {
				caps = plainInitialize
			}
			f.initialize(caps)
			f.s = f.newSession("")
			if got := f.prompt(f.s, "go"); got != "end_turn" {
				t.Errorf("the turn ended %q", got)
			}
			tt.check(t, f)
			// The next valid requests are served.
			if got := f.prompt(f.s, "hello"); got != "end_turn" {
				t.Errorf("the next prompt = %s", got)
			}
			f.newSession("")
			for _, fr := range f.c.Frames() {
				if fr.Error != nil && !strings.HasPrefix(fr.Error.Message, "method not found: \"fs/") {
					t.Errorf("an error answer: %.300s", fr.Raw)
				}
			}
		})
	}
}
