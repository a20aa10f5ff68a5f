package corpus_test

// The in-process runner: each corpus case against the real stack
// (acp.Serve, the bridge, app.Factory with the real tools and policy),
// driven by an acptest.Client that validates every frame against the ACP
// schema and answers as the case's client would.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/internal/app"
	"github.com/dsh-acp/dsh-acp/internal/corpus"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/tools/shell"
)

// hangGuard bounds every wait: a guard against hangs, never a timing
// assertion.
const hangGuard = 2 * time.Minute

// initializeParams are the capabilities of the case's client.
var initializeParams = map[string]string{
	"zed":   `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,"_meta":{"terminal_output":true,"terminal-auth":true}},"clientInfo":{"name":"zed","version":"0.999.0"}}`,
	"plain": `{"protocolVersion":1,"clientCapabilities":{}}`,
}

// run is one case served in process.
type run struct {
	c      *acptest.Client
	layout corpus.Layout
	sid    acpsdk.SessionId
	stops  []string
}

// loadSchema loads the ACP schema once per test binary.
var loadSchema = sync.OnceValues(acptest.OpenSchema)

// sharedSchema is the schema every frame is validated against.
func sharedSchema(t *testing.T) *acptest.Schema {
	t.Helper()
	s, err := loadSchema()
	if err != nil {
		t.Fatalf("loading the ACP schema: %v", err)
	}
	return s
}

// runCase prepares c, serves it and sends its prompts.
func runCase(t *testing.T, c corpus.Case) *run {
	t.Helper()
	layout, err := c.Prepare(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range c.Setup.Env {
		t.Setenv(k, v)
	}
	model, err := llm.LoadScript(c.ScriptPath(corpus.Dir()))
	if err != nil {
		t.Fatal(err)
	}
	preset := policy.Preset(c.Preset)
	factory := app.Factory(app.Config{Provider: model, Preset: preset, Shell: shell.Options{SpillDir: t.TempDir()}})
	var (
		mu sync.Mutex
		b  *bridge.Bridge
	)
	client := acptest.Connect(t, func(ctx context.Context, r io.Reader, w io.Writer) error {
		err := acp.Serve(ctx, r, w, func(conn *acp.Conn) acp.Agent {
			mu.Lock()
			defer mu.Unlock()
			b = bridge.New(conn, bridge.Options{Name: "dsh-acp", Title: "dsh", Version: "corpus", Factory: factory, Defaults: live.Settings{Preset: preset}})
			return b
		}, acp.Options{})
		mu.Lock()
		defer mu.Unlock()
		if b != nil {
			b.Close()
		}
		return err
	}, acptest.WithSchema(sharedSchema(t)))
	answerAsClient(client, c, layout)

	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	rn := &run{c: client, layout: layout}
	if err := client.Call(ctx, "initialize", json.RawMessage(initializeParams[c.Client]), nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	var s acpsdk.NewSessionResponse
	if err := client.Call(ctx, "session/new", acpsdk.NewSessionRequest{Cwd: layout.Workspace, McpServers: []acpsdk.McpServer{}}, &s); err != nil {
		t.Fatalf("session/new: %v", err)
	}
	rn.sid = s.SessionId
	for _, text := range c.Prompts {
		var p acpsdk.PromptResponse
		req := acpsdk.PromptRequest{SessionId: s.SessionId, Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock(text)}}
		if err := client.Call(ctx, "session/prompt", req, &p); err != nil {
			t.Fatalf("session/prompt %q: %v", text, err)
		}
		rn.stops = append(rn.stops, string(p.StopReason))
	}
	return rn
}

// answerAsClient installs the case client's answers: permissions as the
// case says, and for zed the editor's files (buffers first, then disk).
func answerAsClient(client *acptest.Client, c corpus.Case, l corpus.Layout) {
	answer := c.PermissionAnswer()
	client.HandlePermission(func(acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
		if answer == "cancelled" {
			return acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{
				Cancelled: &acpsdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}}
		}
		return acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{
			Selected: &acpsdk.RequestPermissionOutcomeSelected{Outcome: "selected", OptionId: acpsdk.PermissionOptionId(answer)}}}
	})
	if c.Client != "zed" {
		return
	}
	var mu sync.Mutex
	buffers := map[string]string{}
	for rel, text := range c.Setup.Buffers {
		buffers[filepath.Join(l.Workspace, filepath.FromSlash(rel))] = text
	}
	client.HandleReadTextFile(func(req acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
		mu.Lock()
		text, ok := buffers[req.Path]
		mu.Unlock()
		if ok {
			return acpsdk.ReadTextFileResponse{Content: text}, nil
		}
		data, err := os.ReadFile(req.Path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return acpsdk.ReadTextFileResponse{}, &acptest.RPCError{Code: -32002, Message: "Resource not found: " + req.Path}
			}
			return acpsdk.ReadTextFileResponse{}, err
		}
		return acpsdk.ReadTextFileResponse{Content: string(data)}, nil
	})
	client.HandleWriteTextFile(func(req acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
		mu.Lock()
		delete(buffers, req.Path)
		mu.Unlock()
		if err := os.MkdirAll(filepath.Dir(req.Path), 0o755); err != nil {
			return acpsdk.WriteTextFileResponse{}, err
		}
		return acpsdk.WriteTextFileResponse{}, os.WriteFile(req.Path, []byte(req.Content), 0o644)
	})
}

// frames returns every frame the agent wrote, for corpus.Verify.
func (r *run) frames(t *testing.T) []corpus.Frame {
	t.Helper()
	var lines [][]byte
	for _, f := range r.c.Frames() {
		lines = append(lines, f.Raw)
	}
	frames, err := corpus.ParseFrames(lines)
	if err != nil {
		t.Fatal(err)
	}
	return frames
}
