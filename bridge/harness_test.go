package bridge_test

// The harness every bridge test runs on: the real stack (acp.Serve, the
// Bridge, app.Factory with the real tools, policy and pipeline) driven by an
// acptest.Client over in-process pipes, which validates every frame the
// server writes against the ACP schema. On top of that, every test checks
// over all its frames that
//   - no tool_call_update (and no permission request, no form about a
//     call) precedes its tool_call (B65), and a tool_call is announced once;
//   - every prompt gets exactly one response, and no session/update for the
//     session follows that response (until the session's next prompt);
//   - no event's mapping panicked (the server recovers, a test fails).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"go.lsp.dev/jsonrpc2"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/internal/app"
	"github.com/dsh-acp/dsh-acp/internal/procfs"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/tools/shell"
)

// waitTimeout bounds every wait for a condition; it is a deadline against
// hangs, never a timing assertion.
const waitTimeout = 60 * time.Second

var (
	schemaOnce sync.Once
	schema     *acptest.Schema
	schemaErr  error
)

// sharedSchema loads the ACP schema once per test binary.
func sharedSchema(t testing.TB) *acptest.Schema {
	t.Helper()
	schemaOnce.Do(func() { schema, schemaErr = acptest.OpenSchema() })
	if schemaErr != nil {
		t.Fatalf("loading the ACP schema: %v", schemaErr)
	}
	return schema
}

// testCtx is a context that ends with the test, bounded by waitTimeout.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return ctx
}

// options configure an env.
type options struct {
	provider llm.Provider
	preset   policy.Preset
	// factory wraps the real factory (e.g. to fail it); nil uses it as is.
	wrap func(bridge.Factory) bridge.Factory
	// store keeps the sessions; dir is the workspace (fresh when empty);
	// state keeps the projects' rules (fresh when empty).
	store *session.Store
	dir   string
	state string
	// models, model (the default) and auth are the bridge's.
	models func() []bridge.ModelChoice
	model  string
	auth   bridge.Auth
	// redactor hides secrets toward the editor and the model, as
	// cmd/dsh-acp's does.
	redactor *secrets.Redactor
}

type option func(*options)

func withProvider(p llm.Provider) option      { return func(o *options) { o.provider = p } }
func withPreset(p policy.Preset) option       { return func(o *options) { o.preset = p } }
func withStore(st *session.Store) option      { return func(o *options) { o.store = st } }
func withState(dir string) option             { return func(o *options) { o.state = dir } }
func withDir(dir string) option               { return func(o *options) { o.dir = dir } }
func withAuth(a bridge.Auth) option           { return func(o *options) { o.auth = a } }
func withRedactor(r *secrets.Redactor) option { return func(o *options) { o.redactor = r } }
func withModels(m ...bridge.ModelChoice) option {
	return func(o *options) { o.models = func() []bridge.ModelChoice { return m } }
}
func withDefaultModel(id string) option { return func(o *options) { o.model = id } }
func withFactory(w func(bridge.Factory) bridge.Factory) option {
	return func(o *options) { o.wrap = w }
}

// env is one connection: a client, the bridge behind it, and the
// bookkeeping of the prompts the test sent.
type env struct {
	t   *testing.T
	c   *acptest.Client
	dir string // a fresh workspace, symlinks resolved

	factoryCalls atomic.Int32

	mu       sync.Mutex
	b        *bridge.Bridge
	prompts  []*promptRec
	replays  []replayRec
	nextID   int
	abandons map[string]bool
}

// replayRec is a span of frames in which a session may send updates
// that no prompt owns: a session/load's replay, or a turn steering
// started.
type replayRec struct {
	session  string
	from, to int
}

// load sends session/load and returns its answer, recording the replay so
// the frame checks allow its updates.
func (e *env) load(session, cwd string, result any) error {
	e.t.Helper()
	from := len(e.c.Frames())
	req := acpsdk.LoadSessionRequest{SessionId: acpsdk.SessionId(session), Cwd: cwd, McpServers: []acpsdk.McpServer{}}
	err := e.c.Call(testCtx(e.t), "session/load", req, result)
	e.mu.Lock()
	e.replays = append(e.replays, replayRec{session, from, len(e.c.Frames())})
	e.mu.Unlock()
	return err
}

// promptRec is one session/prompt the test sent.
type promptRec struct {
	session string
	id      string // raw JSON id
	sentAt  int    // frames recorded before it was sent
}

// newEnv serves a fresh bridge to a fresh client. The server side mirrors
// cmd/dsh-acp: acp.Serve, then Bridge.Close once the client went away.
func newEnv(t *testing.T, opts ...option) *env {
	t.Helper()
	o := options{preset: policy.WorkspaceWrite}
	for _, fn := range opts {
		fn(&o)
	}
	if o.provider == nil {
		o.provider = llm.NewScripted()
	}
	e := &env{t: t, dir: o.dir, abandons: map[string]bool{}}
	if e.dir == "" {
		e.dir = tempDir(t)
	}
	if o.state == "" {
		o.state = t.TempDir()
	}
	factory := app.Factory(app.Config{
		Provider: o.provider,
		Preset:   o.preset,
		StateDir: o.state,
		Shell:    shell.Options{SpillDir: t.TempDir()}, // the real kill grace: SIGTERM must suffice
		Redactor: o.redactor,
	})
	if o.wrap != nil {
		factory = o.wrap(factory)
	}
	counted := func(ctx context.Context, cfg bridge.SessionConfig) (*live.Session, error) {
		e.factoryCalls.Add(1)
		return factory(ctx, cfg)
	}
	schema := sharedSchema(t) // before the cleanup below: checkFrames needs a client
	// Registered before Connect, so it runs after the client's own cleanup
	// (Close): every frame is in by then.
	t.Cleanup(e.checkFrames)
	e.c = acptest.Connect(t, func(ctx context.Context, r io.Reader, w io.Writer) error {
		err := acp.Serve(ctx, r, w, func(conn *acp.Conn) acp.Agent {
			b := bridge.New(conn, bridge.Options{Name: "dsh-acp", Title: "dsh", Version: "9.9.9-test", Factory: counted,
				Defaults: live.Settings{Preset: o.preset, Model: o.model}, Store: o.store, Models: o.models, Auth: o.auth, Redactor: o.redactor})
			e.mu.Lock()
			e.b = b
			e.mu.Unlock()
			return b
		}, acp.Options{Redactor: o.redactor})
		if b := e.bridge(); b != nil {
			b.Close()
		}
		return err
	}, acptest.WithSchema(schema))
	return e
}

// bridge returns the Bridge the server built.
func (e *env) bridge() *bridge.Bridge {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.b
}

// tempDir is a t.TempDir with symlinks resolved, so paths the tools report
// compare equal to the ones the test builds.
func tempDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// --- requests -----------------------------------------------------------

// zedInitialize is the initialize request Zed sends (reference §4).
const zedInitialize = `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,"auth":{"terminal":true},"_meta":{"terminal_output":true,"terminal-auth":true}},"clientInfo":{"name":"zed","version":"0.999.0","title":"Zed Dev"}}`

// plainInitialize offers nothing: no editor files, no terminal convention.
const plainInitialize = `{"protocolVersion":1,"clientCapabilities":{}}`

// initialize sends an initialize with the raw params and returns the answer.
func (e *env) initialize(params string) map[string]any {
	e.t.Helper()
	var resp map[string]any
	if err := e.c.Call(testCtx(e.t), "initialize", json.RawMessage(params), &resp); err != nil {
		e.t.Fatalf("initialize: %v", err)
	}
	return resp
}

// caps builds initialize params with the given capabilities.
func caps(terminal, fsRead, fsWrite bool) string {
	return fmt.Sprintf(`{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":%t,"writeTextFile":%t},"terminal":false,"_meta":{"terminal_output":%t}}}`, fsRead, fsWrite, terminal)
}

// newSession opens a session in cwd (the env's workspace when empty) with
// additional directories.
func (e *env) newSession(cwd string, extra ...string) string {
	e.t.Helper()
	if cwd == "" {
		cwd = e.dir
	}
	req := acpsdk.NewSessionRequest{Cwd: cwd, McpServers: []acpsdk.McpServer{}, AdditionalDirectories: extra}
	var resp acpsdk.NewSessionResponse
	if err := e.c.Call(testCtx(e.t), "session/new", req, &resp); err != nil {
		e.t.Fatalf("session/new: %v", err)
	}
	if resp.SessionId == "" {
		e.t.Fatalf("session/new answered no session id")
	}
	return string(resp.SessionId)
}

// pending is a prompt in flight.
type pending struct {
	e   *env
	rec *promptRec
}

// startPrompt sends session/prompt with text blocks and returns at once.
func (e *env) startPrompt(session string, texts ...string) *pending {
	e.t.Helper()
	blocks := make([]acpsdk.ContentBlock, len(texts))
	for i, s := range texts {
		blocks[i] = acpsdk.TextBlock(s)
	}
	return e.startPromptBlocks(session, blocks...)
}

// startPromptBlocks sends session/prompt with any blocks and returns at
// once. The request has an id of its own (a string), so its answer can be
// found among the frames.
func (e *env) startPromptBlocks(session string, blocks ...acpsdk.ContentBlock) *pending {
	e.t.Helper()
	params, err := json.Marshal(acpsdk.PromptRequest{SessionId: acpsdk.SessionId(session), Prompt: blocks})
	if err != nil {
		e.t.Fatal(err)
	}
	e.mu.Lock()
	e.nextID++
	id := strconv.Quote("prompt-" + strconv.Itoa(e.nextID))
	rec := &promptRec{session: session, id: id, sentAt: len(e.c.Frames())}
	e.prompts = append(e.prompts, rec)
	e.mu.Unlock()
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"session/prompt","params":%s}`, id, params)
	if err := e.c.SendRaw(line); err != nil {
		e.t.Fatalf("sending session/prompt: %v", err)
	}
	return &pending{e: e, rec: rec}
}

// track records a session/prompt the test sends itself (raw) with id, so
// the frame checks know its turn.
func (e *env) track(session, id string) {
	e.mu.Lock()
	e.prompts = append(e.prompts, &promptRec{session: session, id: id, sentAt: len(e.c.Frames())})
	e.mu.Unlock()
}

// wait returns the prompt's stop reason, or its error.
func (p *pending) wait() (string, *acptest.RPCError) {
	p.e.t.Helper()
	f, err := p.e.c.WaitFrame(testCtx(p.e.t), func(f acptest.Frame) bool {
		return f.IsResponse() && string(f.ID) == p.rec.id
	})
	if err != nil {
		p.e.t.Fatalf("waiting for the answer to prompt %s: %v", p.rec.id, err)
	}
	if f.Error != nil {
		return "", f.Error
	}
	var resp acpsdk.PromptResponse
	if err := json.Unmarshal(f.Result, &resp); err != nil {
		p.e.t.Fatalf("decoding the prompt answer %s: %v", f.Raw, err)
	}
	return string(resp.StopReason), nil
}

// stop waits for the prompt and requires a stop reason.
func (p *pending) stop() string {
	p.e.t.Helper()
	reason, rpcErr := p.wait()
	if rpcErr != nil {
		p.e.t.Fatalf("prompt answered an error: %d %s", rpcErr.Code, rpcErr.Message)
	}
	return reason
}

// abandon marks a prompt that may never be answered (the client went
// away).
func (p *pending) abandon() {
	p.e.mu.Lock()
	p.e.abandons[p.rec.id] = true
	p.e.mu.Unlock()
}

// prompt sends a text prompt and waits for its stop reason.
func (e *env) prompt(session string, texts ...string) string {
	e.t.Helper()
	return e.startPrompt(session, texts...).stop()
}

// cancel sends session/cancel.
func (e *env) cancel(session string) {
	e.t.Helper()
	if err := e.c.Notify("session/cancel", acpsdk.CancelNotification{SessionId: acpsdk.SessionId(session)}); err != nil {
		e.t.Fatalf("session/cancel: %v", err)
	}
}

// waitFrame waits for a frame match accepts.
func (e *env) waitFrame(what string, match func(acptest.Frame) bool) acptest.Frame {
	e.t.Helper()
	f, err := e.c.WaitFrame(testCtx(e.t), match)
	if err != nil {
		e.t.Fatalf("waiting for %s: %v", what, err)
	}
	return f
}

// waitUpdate waits for a session/update of session that match accepts.
func (e *env) waitUpdate(session, what string, match func(update) bool) update {
	e.t.Helper()
	f := e.waitFrame(what, func(f acptest.Frame) bool {
		if f.Method != "session/update" {
			return false
		}
		u, ok := decodeUpdate(f)
		return ok && u.Session == session && match(u)
	})
	u, _ := decodeUpdate(f)
	return u
}

// --- updates ------------------------------------------------------------

// update is one session/update as it went on the wire, with the fields
// the tests look at.
type update struct {
	Session    string
	Frame      int // its index among the frames
	Kind       string
	ToolCallID string
	Title      *string
	ToolKind   string
	Status     string
	RawInput   json.RawMessage
	Content    json.RawMessage
	Locations  []struct {
		Path string `json:"path"`
		Line *int   `json:"line"`
	}
	Meta    map[string]json.RawMessage
	Entries []struct {
		Content  string `json:"content"`
		Priority string `json:"priority"`
		Status   string `json:"status"`
	}
	Raw json.RawMessage // the update object
}

func decodeUpdate(f acptest.Frame) (update, bool) {
	var n struct {
		SessionID string          `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
	}
	if json.Unmarshal(f.Params, &n) != nil {
		return update{}, false
	}
	var u struct {
		SessionUpdate string                     `json:"sessionUpdate"`
		ToolCallID    string                     `json:"toolCallId"`
		Title         *string                    `json:"title"`
		Kind          string                     `json:"kind"`
		Status        string                     `json:"status"`
		RawInput      json.RawMessage            `json:"rawInput"`
		Content       json.RawMessage            `json:"content"`
		Meta          map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(n.Update, &u) != nil {
		return update{}, false
	}
	out := update{
		Session: n.SessionID, Kind: u.SessionUpdate, ToolCallID: u.ToolCallID, Title: u.Title,
		ToolKind: u.Kind, Status: u.Status, RawInput: u.RawInput, Content: u.Content, Meta: u.Meta, Raw: n.Update,
	}
	var extra struct {
		Locations json.RawMessage `json:"locations"`
		Entries   json.RawMessage `json:"entries"`
	}
	_ = json.Unmarshal(n.Update, &extra)
	if extra.Locations != nil {
		_ = json.Unmarshal(extra.Locations, &out.Locations)
	}
	if extra.Entries != nil {
		_ = json.Unmarshal(extra.Entries, &out.Entries)
	}
	return out, true
}

// updates returns the session's updates so far, in order, except the
// announcements of its slash commands (see allUpdates).
func (e *env) updates(session string) []update {
	var out []update
	for _, u := range e.allUpdates(session) {
		if u.Kind != "available_commands_update" {
			out = append(out, u)
		}
	}
	return out
}

// allUpdates returns every update of the session so far, in order.
func (e *env) allUpdates(session string) []update {
	var out []update
	for i, f := range e.c.Frames() {
		if f.Method != "session/update" {
			continue
		}
		u, ok := decodeUpdate(f)
		if !ok {
			e.t.Errorf("an undecodable session/update: %s", f.Raw)
			continue
		}
		if u.Session == session {
			u.Frame = i
			out = append(out, u)
		}
	}
	return out
}

// chunkText is the text of a message chunk.
func (u update) chunkText() string {
	var b struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(u.Content, &b)
	return b.Text
}

// item is one ToolCallContent entry.
type item struct {
	Type       string  `json:"type"`
	Path       string  `json:"path"`
	OldText    *string `json:"oldText"`
	NewText    string  `json:"newText"`
	TerminalID string  `json:"terminalId"`
	Content    struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// items decodes a tool card's content.
func (u update) items() []item {
	var out []item
	if len(u.Content) > 0 {
		_ = json.Unmarshal(u.Content, &out)
	}
	return out
}

// hasKey reports whether the update object has a top-level key.
func (u update) hasKey(key string) bool {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(u.Raw, &m)
	_, ok := m[key]
	return ok
}

// agentText joins the session's agent_message_chunk texts.
func agentText(us []update) string {
	var b strings.Builder
	for _, u := range us {
		if u.Kind == "agent_message_chunk" {
			b.WriteString(u.chunkText())
		}
	}
	return b.String()
}

// forCall returns the updates of one tool call: its tool_call first.
func forCall(us []update, id string) []update {
	var out []update
	for _, u := range us {
		if (u.Kind == "tool_call" || u.Kind == "tool_call_update") && u.ToolCallID == id {
			out = append(out, u)
		}
	}
	return out
}

// finalStatus is the last status a call's updates set.
func finalStatus(us []update) string {
	status := ""
	for _, u := range us {
		if u.Status != "" {
			status = u.Status
		}
	}
	return status
}

// countStatus counts a call's updates that set status.
func countStatus(us []update, status string) int {
	n := 0
	for _, u := range us {
		if u.Kind == "tool_call_update" && u.Status == status {
			n++
		}
	}
	return n
}

// --- the checks over every frame -----------------------------------------

// checkFrames runs after the client closed, over every frame of the test.
func (e *env) checkFrames() {
	t := e.t
	if b := e.bridge(); b != nil && b.MappingPanics() > 0 {
		t.Errorf("the mapping of %d events panicked (see the bridge's log)", b.MappingPanics())
	}
	frames := e.c.Frames()
	announced := map[string]int{} // session + call id → frame index of its tool_call
	for i, f := range frames {
		switch f.Method {
		case "session/update":
			u, ok := decodeUpdate(f)
			if !ok {
				continue
			}
			key := u.Session + "\x00" + u.ToolCallID
			switch u.Kind {
			case "tool_call":
				if _, dup := announced[key]; dup {
					t.Errorf("frame %d: tool_call %s announced twice", i, u.ToolCallID)
				}
				announced[key] = i
				if !isObject(u.RawInput) {
					t.Errorf("frame %d: tool_call %s: rawInput %s is not the arguments object", i, u.ToolCallID, u.RawInput)
				}
			case "tool_call_update":
				if _, ok := announced[key]; !ok {
					t.Errorf("frame %d: B65: tool_call_update for %s before (or without) its tool_call: %s", i, u.ToolCallID, f.Raw)
				}
			}
		case "session/request_permission":
			var req acpsdk.RequestPermissionRequest
			if err := json.Unmarshal(f.Params, &req); err != nil {
				t.Errorf("frame %d: undecodable permission request: %v", i, err)
				continue
			}
			if _, ok := announced[string(req.SessionId)+"\x00"+string(req.ToolCall.ToolCallId)]; !ok {
				t.Errorf("frame %d: a permission request for %s before its tool_call", i, req.ToolCall.ToolCallId)
			}
			if raw, _ := json.Marshal(req.ToolCall.RawInput); !isObject(raw) {
				t.Errorf("frame %d: the permission request for %s: rawInput %s is not the arguments object", i, req.ToolCall.ToolCallId, raw)
			}
		case "elicitation/create":
			var req struct {
				SessionID  string `json:"sessionId"`
				ToolCallID string `json:"toolCallId"`
			}
			if err := json.Unmarshal(f.Params, &req); err != nil {
				t.Errorf("frame %d: undecodable elicitation request: %v", i, err)
				continue
			}
			if _, ok := announced[req.SessionID+"\x00"+req.ToolCallID]; req.ToolCallID != "" && !ok {
				t.Errorf("frame %d: a form for %s before its tool_call", i, req.ToolCallID)
			}
		}
	}

	e.mu.Lock()
	prompts := append([]*promptRec(nil), e.prompts...)
	replays := append([]replayRec(nil), e.replays...)
	abandons := e.abandons
	e.mu.Unlock()
	// A prompt's turn runs from its request to its answer: every
	// session/update of a session must fall inside a turn of that session
	// (or a session/load's replay, or tell of a changed setting), so none
	// follows the answer of the prompt it belongs to.
	type window struct{ from, to int }
	turns := map[string][]window{}
	for _, p := range prompts {
		answers := []int{}
		for i, f := range frames {
			if f.IsResponse() && string(f.ID) == p.id {
				answers = append(answers, i)
			}
		}
		switch {
		case len(answers) > 1:
			t.Errorf("prompt %s answered %d times", p.id, len(answers))
		case len(answers) == 0:
			if !abandons[p.id] {
				t.Errorf("prompt %s never answered", p.id)
			}
			turns[p.session] = append(turns[p.session], window{p.sentAt, len(frames)})
		case frames[answers[0]].Error != nil && frames[answers[0]].Error.Code == -32602:
			// refused: it owned no turn
		default:
			turns[p.session] = append(turns[p.session], window{p.sentAt, answers[0]})
		}
	}
	for _, r := range replays {
		turns[r.session] = append(turns[r.session], window{r.from, r.to})
	}
	// A child session (subagent_update) belongs to its parent's turns, and
	// none of its updates precedes its announcement.
	parents := map[string]string{}
	announcedAt := map[string]int{}
	for i, f := range frames {
		var p struct {
			SessionID string `json:"sessionId"`
			Update    struct {
				Kind  string `json:"sessionUpdate"`
				Child string `json:"sessionId"`
			} `json:"update"`
		}
		if f.Method != "session/update" || json.Unmarshal(f.Params, &p) != nil || p.Update.Kind != "subagent_update" {
			continue
		}
		if _, seen := announcedAt[p.Update.Child]; !seen {
			parents[p.Update.Child], announcedAt[p.Update.Child] = p.SessionID, i
		}
	}
	owner := func(session string) string {
		for parents[session] != "" {
			session = parents[session]
		}
		return session
	}
	for i, f := range frames {
		if f.Method != "session/update" {
			continue
		}
		u, ok := decodeUpdate(f)
		if !ok {
			continue
		}
		if at, child := announcedAt[u.Session]; child && i < at {
			t.Errorf("frame %d: an update of child session %s before its subagent_update (frame %d)", i, u.Session, at)
		}
		u.Session = owner(u.Session)
		switch u.Kind {
		case "current_mode_update", "config_option_update", "available_commands_update", "notice":
			continue // a setting changed, the commands, a notice: not part of any turn
		}
		inside := false
		for _, w := range turns[u.Session] {
			if w.from <= i && i < w.to {
				inside = true
			}
		}
		if !inside {
			t.Errorf("frame %d: a session/update for %s outside every prompt of the session (after its answer?): %s", i, u.Session, f.Raw)
		}
	}
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	var obj map[string]json.RawMessage
	return json.Unmarshal(raw, &obj) == nil && obj != nil
}

// --- model doubles ------------------------------------------------------

// providerFunc is a Provider made of a function.
type providerFunc func(ctx context.Context, req llm.Request) (*llm.Stream, error)

func (f providerFunc) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	return f(ctx, req)
}

// textStream answers with text in a few deltas.
func textStream(ctx context.Context, text string) *llm.Stream {
	var evs []llm.Event
	for _, w := range strings.SplitAfter(text, " ") {
		evs = append(evs, llm.TextDelta{Text: w})
	}
	return llm.StreamOf(ctx, append(evs, llm.Finish{Reason: llm.FinishStop})...)
}

// lastUser is the text of the request's last user message.
func lastUser(req llm.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleUser {
			return req.Messages[i].Content
		}
	}
	return ""
}

// toolResults is the text of the request's tool messages.
func toolResults(req llm.Request) string {
	var b strings.Builder
	for _, m := range req.Messages {
		if m.Role == llm.RoleTool {
			b.WriteString(m.Content)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// call is a model tool call with JSON arguments.
func call(id, name string, args any) llm.ToolCall {
	data, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return llm.ToolCall{ID: id, Name: name, Arguments: string(data)}
}

// toolStep is a model step making one call.
func toolStep(id, name string, args any) llm.Message {
	return llm.Message{ToolCalls: []llm.ToolCall{call(id, name, args)}}
}

// gate is a provider that blocks each request until its context ends,
// announcing each request on started, except the requests answer takes.
type gate struct {
	started chan string
	// answer returns a stream for requests it takes (ok), nil to block.
	answer func(ctx context.Context, req llm.Request) (*llm.Stream, bool)
}

func newGate(answer func(ctx context.Context, req llm.Request) (*llm.Stream, bool)) *gate {
	return &gate{started: make(chan string, 64), answer: answer}
}

func (g *gate) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	if g.answer != nil {
		if s, ok := g.answer(ctx, req); ok {
			return s, nil
		}
	}
	g.started <- lastUser(req)
	<-ctx.Done()
	return nil, fmt.Errorf("model request stopped: %w", ctx.Err())
}

// waitStarted waits until the gate holds a request.
func (g *gate) waitStarted(t testing.TB) string {
	t.Helper()
	select {
	case s := <-g.started:
		return s
	case <-time.After(waitTimeout):
		t.Fatal("the model was never asked")
		return ""
	}
}

// --- files and processes ------------------------------------------------

// writeFile writes a file below dir.
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readFile returns a file's content, or "<absent>".
func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "<absent>"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// eventually polls cond until it holds or waitTimeout passes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// readPids waits for a pid file to hold n pids and returns them.
func readPids(t testing.TB, path string, n int) []int {
	t.Helper()
	var pids []int
	eventually(t, "the command's pid file", func() bool {
		data, err := os.ReadFile(path)
		if err != nil || !strings.HasSuffix(string(data), "\n") {
			return false
		}
		pids = pids[:0]
		for _, f := range strings.Fields(string(data)) {
			pid, err := strconv.Atoi(f)
			if err != nil {
				return false
			}
			pids = append(pids, pid)
		}
		return len(pids) >= n
	})
	return pids
}

// procStat reads a process's state and process group from /proc; ok is
// false when the process is gone.
func procStat(pid int) (state byte, pgrp int, ok bool) {
	st, ok := procfs.ReadStat(strconv.Itoa(pid))
	return st.State, st.PGRP, ok
}

// alive reports whether pid runs: it exists and is not a zombie.
func alive(pid int) bool {
	state, _, ok := procStat(pid)
	return ok && state != 'Z'
}

// groupMembers lists the live (non-zombie) processes of process group pgid.
func groupMembers(pgid int) []int {
	var out []int
	for _, name := range procfs.PIDs() {
		if st, ok := procfs.ReadStat(name); ok && st.PGRP == pgid && st.State != 'Z' {
			pid, _ := strconv.Atoi(name)
			out = append(out, pid)
		}
	}
	return out
}

// anyAlive lists which of pids still run, or belong to a live group.
func anyAlive(pids []int, pgid int) []int {
	var out []int
	for _, pid := range pids {
		if alive(pid) {
			out = append(out, pid)
		}
	}
	if pgid > 0 {
		out = append(out, groupMembers(pgid)...)
	}
	return out
}

// allowOnce answers every permission request with allow-once.
func allowOnce(acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
	return selected("allow-once")
}

func selected(option string) acpsdk.RequestPermissionResponse {
	return acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{
		Selected: &acpsdk.RequestPermissionOutcomeSelected{OptionId: acpsdk.PermissionOptionId(option)}}}
}

// asRPC turns an error of the Go API (a *jsonrpc2.Error) into the
// RPCError the client would see.
func asRPC(err error) error {
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) {
		return err
	}
	return &acptest.RPCError{Code: int64(rpcErr.Code), Message: rpcErr.Message}
}
