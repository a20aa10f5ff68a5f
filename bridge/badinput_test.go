package bridge_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/llm"
)

// badEnv is a connection with an open session, for one bad-input case.
type badEnv struct {
	*env
	s       string
	model   *suiteModel
	release chan struct{}
	held    *pending // a prompt a case keeps running
}

// suiteModel answers "hold…" prompts once released (or cancelled), "ask"
// with a bash call that needs approval, "readfile" with a read, anything
// else with "ok".
type suiteModel struct {
	started chan string
	release chan struct{}
}

func (m *suiteModel) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	user := lastUser(req)
	first := req.Messages[len(req.Messages)-1].Role == llm.RoleUser
	switch {
	case strings.HasPrefix(user, "hold") && first:
		m.started <- user
		select {
		case <-m.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	case user == "ask" && first:
		return callStream(ctx, call("c_ask", "bash", map[string]any{"command": "touch marker"})), nil
	case user == "readfile" && first:
		return callStream(ctx, call("c_read", "read", map[string]any{"file_path": "a.txt"})), nil
	}
	return textStream(ctx, "ok"), nil
}

func (b *badEnv) waitStarted() {
	b.t.Helper()
	select {
	case <-b.model.started:
	case <-testCtx(b.t).Done():
		b.t.Fatal("the held prompt never reached the model")
	}
}

// raw builds a request line with id "bad".
func rawRequest(method, params string) string {
	return `{"jsonrpc":"2.0","id":"bad","method":"` + method + `","params":` + params + `}`
}

// TestBadInput: each case sends something wrong and expects a clear error
// (code and message) or nothing at all for a notification; then a valid
// prompt and a valid session/new must still be served.
func TestBadInput(t *testing.T) {
	type testCase struct {
		name string
		bare bool                          // send before initialize and session/new (b.s is empty)
		caps string                        // initialize params; plainInitialize when empty
		send func(t *testing.T, b *badEnv) // the bad input
		code int64                         // the error answered; 0: no error at all
		msg  string                        // in the error's message
		id   string                        // the error's raw id; `"bad"` when empty
		then func(t *testing.T, b *badEnv) // further checks
	}
	line := func(l string) func(*testing.T, *badEnv) {
		return func(t *testing.T, b *badEnv) {
			if err := b.c.SendRaw(l); err != nil {
				t.Fatal(err)
			}
		}
	}
	prompt := func(prompt string) func(*testing.T, *badEnv) {
		return func(t *testing.T, b *badEnv) {
			b.track(b.s, `"bad"`)
			line(rawRequest("session/prompt", `{"sessionId":`+quote(b.s)+`,"prompt":`+prompt+`}`))(t, b)
		}
	}
	answered := func(want string) func(*testing.T, *badEnv) {
		return func(t *testing.T, b *badEnv) {
			f := b.waitFrame("the answer to bad", func(f acptest.Frame) bool { return f.IsResponse() && string(f.ID) == `"bad"` })
			if f.Error != nil || !strings.Contains(string(f.Result), want) {
				t.Errorf("answer = %s, want a result with %s", f.Raw, want)
			}
		}
	}
	big := `{"jsonrpc":"2.0","id":"big","method":"session/prompt","params":{"sessionId":"x","prompt":[{"type":"text","text":"` + strings.Repeat("a", 40<<20) + `"}]}}`

	tests := []testCase{
		// The wire.
		{name: "malformed JSON", send: line(`{"jsonrpc":"2.0","id":"bad","method":`), code: -32700, msg: "parse error", id: "null"},
		{name: "not JSON at all", send: line(`hello, agent`), code: -32700, msg: "parse error", id: "null"},
		{name: "blank lines", send: line("\n   \n\t"), code: 0},
		{name: "a JSON array (batch)", send: line(`[` + rawRequest("initialize", `{"protocolVersion":1}`) + `]`), code: -32600, msg: "batches are not supported", id: "null"},
		{name: "a JSON scalar", send: line(`42`), code: -32600, msg: "must be a JSON object", id: "null"},
		{name: "a 40 MiB line is refused with its id", send: line(big), code: -32600, msg: "exceeds the 32 MiB line limit", id: `"big"`},
		{name: "invalid UTF-8 outside any string", send: line("\xff\xfe{\"jsonrpc\":\"2.0\"}"), code: -32700, msg: "parse error", id: "null"},
		{name: "invalid UTF-8 inside a prompt is repaired, not fatal", send: prompt(`[{"type":"text","text":"caf` + "\xff" + `"}]`), code: 0,
			then: func(t *testing.T, b *badEnv) { answered(`"end_turn"`)(t, b) }},
		{name: "jsonrpc 1.0", send: line(`{"jsonrpc":"1.0","id":"bad","method":"initialize","params":{"protocolVersion":1}}`), code: -32600, msg: "invalid request"},
		{name: "no method", send: line(`{"jsonrpc":"2.0","id":"bad"}`), code: -32600, msg: "invalid request"},
		{name: "an object as id", send: line(`{"jsonrpc":"2.0","id":{"n":1},"method":"initialize","params":{"protocolVersion":1}}`), code: -32600, msg: "invalid request", id: "null"},
		{name: "unknown method", send: line(rawRequest("session/fly", `{}`)), code: -32601, msg: `method not found: "session/fly"`},
		{name: "unknown extension method", send: line(rawRequest("_zed/whatever", `{}`)), code: -32601, msg: "method not found"},
		{name: "unknown notification", send: line(`{"jsonrpc":"2.0","method":"_zed/ping","params":{}}`), code: 0},
		{name: "a response to nothing the server asked", send: line(`{"jsonrpc":"2.0","id":"nope","result":{}}`), code: 0},
		{name: "a request with a string id", send: line(rawRequest("authenticate", `{"methodId":"x"}`)), code: 0,
			then: func(t *testing.T, b *badEnv) { answered(`{}`)(t, b) }},
		{name: "a request with an id of null", send: func(t *testing.T, b *badEnv) {
			line(`{"jsonrpc":"2.0","id":null,"method":"session/cancel","params":{"sessionId":`+quote(b.s)+`}}`)(t, b)
		}, code: -32600, msg: "request id may not be null", id: "null"},
		{name: "$/cancel_request for an unknown id", send: line(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"never-sent"}}`), code: 0},
		{name: "$/cancel_request with an unusable id", send: line(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":{"x":1}}}`), code: 0},
		{name: "$/cancel_request for a running prompt answers it cancelled", send: func(t *testing.T, b *badEnv) {
			prompt(`[{"type":"text","text":"hold"}]`)(t, b)
			b.waitStarted()
			line(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"bad"}}`)(t, b)
		}, code: 0, then: func(t *testing.T, b *badEnv) { answered(`"cancelled"`)(t, b) }},

		// initialize.
		{name: "session/new before initialize", bare: true, send: line(rawRequest("session/new", `{"cwd":"/tmp","mcpServers":[]}`)),
			code: -32600, msg: "session/new before initialize: the connection is not initialized; send initialize first"},
		{name: "session/prompt before initialize", bare: true, send: line(rawRequest("session/prompt", `{"sessionId":"x","prompt":[{"type":"text","text":"hi"}]}`)),
			code: -32600, msg: "session/prompt before initialize"},
		{name: "authenticate before initialize", bare: true, send: line(rawRequest("authenticate", `{"methodId":"x"}`)),
			code: -32600, msg: "authenticate before initialize"},
		{name: "initialize: protocolVersion a string", send: line(rawRequest("initialize", `{"protocolVersion":"one"}`)), code: -32602, msg: `field "protocolVersion" must be an integer`},
		{name: "initialize: params an array", send: line(rawRequest("initialize", `[1]`)), code: -32602, msg: "must be a JSON object"},
		{name: "initialize: no protocolVersion", send: line(rawRequest("initialize", `{"clientCapabilities":{}}`)), code: -32602, msg: `missing required field "protocolVersion"`},
		{name: "initialize: clientCapabilities a string", send: line(rawRequest("initialize", `{"protocolVersion":1,"clientCapabilities":"all"}`)), code: -32602, msg: "clientCapabilities"},
		{name: "authenticate: no methodId", send: line(rawRequest("authenticate", `{}`)), code: -32602, msg: `missing required field "methodId"`},

		// session/new.
		{name: "session/new: cwd a number", send: line(rawRequest("session/new", `{"cwd":5,"mcpServers":[]}`)), code: -32602, msg: `field "cwd" must be a string`},
		{name: "session/new: no mcpServers", send: line(rawRequest("session/new", `{"cwd":"/tmp"}`)), code: -32602, msg: `missing required field "mcpServers"`},
		{name: "session/new: mcpServers an object", send: line(rawRequest("session/new", `{"cwd":"/tmp","mcpServers":{}}`)), code: -32602, msg: "mcpServers"},
		{name: "session/new: relative cwd", send: line(rawRequest("session/new", `{"cwd":"src/app","mcpServers":[]}`)), code: -32602, msg: `cwd must be an absolute path: "src/app"`},
		{name: "session/new: relative additionalDirectories", send: func(t *testing.T, b *badEnv) {
			line(rawRequest("session/new", `{"cwd":`+quote(b.dir)+`,"mcpServers":[],"additionalDirectories":["../lib"]}`))(t, b)
		}, code: -32602, msg: `additionalDirectories must be absolute paths: "../lib"`},
		{name: "session/new: a cwd that does not exist", send: func(t *testing.T, b *badEnv) {
			line(rawRequest("session/new", `{"cwd":`+quote(b.dir+"/gone")+`,"mcpServers":[]}`))(t, b)
		}, code: -32602, msg: "cwd does not exist: "},
		{name: "session/new: a cwd that is a file", send: func(t *testing.T, b *badEnv) {
			writeFile(t, b.dir+"/file.txt", "x\n")
			line(rawRequest("session/new", `{"cwd":`+quote(b.dir+"/file.txt")+`,"mcpServers":[]}`))(t, b)
		}, code: -32602, msg: "cwd is not a directory: "},
		{name: "session/new: an additional directory that does not exist", send: func(t *testing.T, b *badEnv) {
			line(rawRequest("session/new", `{"cwd":`+quote(b.dir)+`,"mcpServers":[],"additionalDirectories":[`+quote(b.dir+"/gone")+`]}`))(t, b)
		}, code: -32602, msg: "additionalDirectories: directory does not exist: "},
		{name: "session/new: additionalDirectories a string", send: line(rawRequest("session/new", `{"cwd":"/tmp","mcpServers":[],"additionalDirectories":"/lib"}`)), code: -32602, msg: `field "additionalDirectories" must be an array`},

		// session/prompt.
		{name: "session/prompt: prompt a string", send: prompt(`"hello"`), code: -32602, msg: `field "prompt" must be an array`},
		{name: "session/prompt: params null", send: line(rawRequest("session/prompt", `null`)), code: -32602, msg: `missing required field "sessionId"`},
		{name: "session/prompt: no prompt", send: func(t *testing.T, b *badEnv) {
			line(rawRequest("session/prompt", `{"sessionId":`+quote(b.s)+`}`))(t, b)
		}, code: -32602, msg: `missing required field "prompt"`},
		{name: "session/prompt: sessionId a number", send: line(rawRequest("session/prompt", `{"sessionId":7,"prompt":[]}`)), code: -32602, msg: `field "sessionId" must be a string`},
		{name: "session/prompt: unknown session", send: line(rawRequest("session/prompt", `{"sessionId":"ghost","prompt":[{"type":"text","text":"hi"}]}`)), code: -32602, msg: `unknown session: "ghost"`},
		{name: "session/prompt: an image block that is no image", send: prompt(`[{"type":"image","data":"iVBORw0KGgo=","mimeType":"text/plain"}]`), code: -32602, msg: `mimeType "text/plain" is not an image type`},
		{name: "session/prompt: an unknown block type", send: prompt(`[{"type":"text","text":"see"},{"type":"hologram","data":"x"}]`), code: -32602, msg: `prompt content of type "hologram" is not supported`},
		{name: "session/prompt: an empty prompt", send: prompt(`[]`), code: -32602, msg: "empty prompt"},
		{name: "session/prompt: a blank prompt", send: prompt(`[{"type":"text","text":" \n "}]`), code: -32602, msg: "empty prompt"},
		// session/cancel.
		{name: "session/cancel: unknown session", send: func(t *testing.T, b *badEnv) { b.cancel("ghost") }, code: 0},
		{name: "session/cancel: params a string", send: line(`{"jsonrpc":"2.0","method":"session/cancel","params":"all"}`), code: 0},
		{name: "requests right after a cancel are served", send: func(t *testing.T, b *badEnv) {
			first := b.startPrompt(b.s, "hold")
			b.waitStarted()
			b.cancel(b.s)
			prompt(`[{"type":"text","text":"next"}]`)(t, b)
			if got := first.stop(); got != "cancelled" {
				t.Errorf("the cancelled prompt = %s", got)
			}
		}, code: 0, then: func(t *testing.T, b *badEnv) { answered(`"end_turn"`)(t, b) }},

		// The client's answers.
		{name: "a permission request answered with garbage fails closed", send: func(t *testing.T, b *badEnv) {
			b.c.Handle("session/request_permission", func(context.Context, json.RawMessage) (any, error) {
				return json.RawMessage(`{"outcome":"yes please"}`), nil
			})
			prompt(`[{"type":"text","text":"ask"}]`)(t, b)
		}, code: 0, then: func(t *testing.T, b *badEnv) {
			answered(`"end_turn"`)(t, b)
			if readFile(t, b.dir+"/marker") != "<absent>" {
				t.Errorf("the command ran on a garbage answer")
			}
			if st := finalStatus(forCall(b.updates(b.s), "c_ask")); st != "failed" {
				t.Errorf("the call ended %q, want failed", st)
			}
		}},
		{name: "an fs/read_text_file answered with an error fails the call", caps: caps(false, true, false), send: func(t *testing.T, b *badEnv) {
			writeFile(t, b.dir+"/a.txt", "text\n")
			b.c.HandleReadTextFile(func(req acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
				return acpsdk.ReadTextFileResponse{}, &acptest.RPCError{Code: -32002, Message: "Resource not found"}
			})
			prompt(`[{"type":"text","text":"readfile"}]`)(t, b)
		}, code: 0, then: func(t *testing.T, b *badEnv) {
			answered(`"end_turn"`)(t, b)
			c := forCall(b.updates(b.s), "c_read")
			if finalStatus(c) != "failed" || countStatus(c, "failed") != 1 {
				t.Errorf("the read's statuses %v, want one failed", statuses(c))
			}
		}},
	}
	if len(tests) < 25 {
		t.Fatalf("only %d bad-input cases", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &suiteModel{started: make(chan string, 4), release: make(chan struct{})}
			e := newEnv(t, withProvider(m))
			b := &badEnv{env: e, model: m, release: m.release}
			caps := tt.caps
			if caps == "" {
				caps = plainInitialize
			}
			if !tt.bare {
				e.initialize(caps)
				b.s = e.newSession("")
			}

			tt.send(t, b)
			if tt.code != 0 {
				id := tt.id
				if id == "" {
					id = `"bad"`
				}
				f := e.waitFrame("the error answer", func(f acptest.Frame) bool { return f.IsResponse() && string(f.ID) == id })
				if f.Error == nil || f.Error.Code != tt.code || !strings.Contains(f.Error.Message, tt.msg) {
					t.Errorf("answer = %.300s, want error %d containing %q", f.Raw, tt.code, tt.msg)
				}
			}
			if tt.then != nil {
				tt.then(t, b)
			}
			if tt.bare {
				e.initialize(caps)
				b.s = e.newSession("")
			}
			// The next valid requests are served.
			if got := e.prompt(b.s, "hello"); got != "end_turn" {
				t.Errorf("the next prompt = %s", got)
			}
			e.newSession("")
			if tt.code == 0 {
				for _, f := range e.c.Frames() {
					if f.Error != nil {
						t.Errorf("an error answer where none was due: %.300s", f.Raw)
					}
				}
			}
		})
	}
}
