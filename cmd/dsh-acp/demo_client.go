package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/policy"
)

// duplex joins the two ends a client talks through.
type duplex struct {
	io.Reader
	io.WriteCloser
}

// runDemoClient is the editor of the demo: it initializes (opting into
// live terminals), opens a session in dir, sends the prompt, approves once
// every call the agent asks about (which calls ask depends on preset), and
// hands every update to the transcript. Every frame the agent sends is
// decoded into the acp vocabulary (or the demo's typed results); one that
// does not decode ends the demo with an error naming the frame.
func runDemoClient(ctx context.Context, r io.ReadCloser, w io.WriteCloser, dir string, preset policy.Preset, t *transcript) (string, error) {
	ctx, cancel := context.WithCancel(ctx)
	c := &demoClient{t: t, cancel: cancel}
	conn := jsonrpc2.NewConn(jsonrpc2.NewNDJSONStream(duplex{r, w}))
	c.conn = conn
	conn.Go(ctx, c.handle)
	defer func() {
		// Closing the reader ends the connection's read loop, which Close
		// waits for.
		cancel()
		r.Close()
		conn.Close()
	}()
	reason, err := c.run(ctx, dir, preset)
	if failed := c.failure(); failed != nil {
		return "", failed // what ended the run, rather than the cancellation it caused
	}
	return reason, err
}

// demoClient is the demo's side of the connection.
type demoClient struct {
	conn   jsonrpc2.Conn
	t      *transcript
	cancel context.CancelFunc

	mu     sync.Mutex
	frames int   // the agent's requests and notifications so far
	failed error // the first frame that did not decode
}

// run is the session the demo's user has with the agent.
func (c *demoClient) run(ctx context.Context, dir string, preset policy.Preset) (string, error) {
	var info initializeResponse
	init := initializeRequest{
		ProtocolVersion: 1,
		ClientCapabilities: clientCapabilities{
			FS:   fileSystemCapability{ReadTextFile: false, WriteTextFile: false},
			Meta: clientCapabilitiesMeta{TerminalOutput: true},
		},
		ClientInfo: implementation{Name: "dsh-acp-demo", Version: version()},
	}
	if err := c.call(ctx, "initialize", init, &info); err != nil {
		return "", err
	}
	c.t.header(info.AgentInfo.Name, info.AgentInfo.Version, info.ProtocolVersion, preset)

	var created acp.NewSessionResponse
	if err := c.call(ctx, "session/new", newSessionRequest{Cwd: dir, McpServers: []struct{}{}}, &created); err != nil {
		return "", err
	}
	if created.SessionID == "" {
		return "", errors.New("session/new: no session id")
	}

	c.t.user(demoPrompt)
	var answer promptResponse
	prompt := promptRequest{SessionID: created.SessionID, Prompt: []textBlock{{Type: "text", Text: demoPrompt}}}
	if err := c.call(ctx, "session/prompt", prompt, &answer); err != nil {
		return "", err
	}
	return answer.StopReason, nil
}

// call sends method with params and decodes its result into result.
func (c *demoClient) call(ctx context.Context, method string, params, result any) error {
	data, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("%s: encoding the params: %w", method, err)
	}
	var raw json.RawMessage
	if _, err := c.conn.Call(ctx, method, json.RawMessage(data), &raw); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if err := json.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("the agent's answer to %s does not decode: %w\n  frame: %s", method, err, excerpt(raw))
	}
	return nil
}

// handle serves what the agent sends the client.
func (c *demoClient) handle(_ context.Context, req *jsonrpc2.Request) (any, error) {
	params := append(json.RawMessage(nil), req.Params()...)
	switch req.Method() {
	case "session/update":
		c.t.frame(params)
		var n acp.SessionNotification
		if err := c.decode(req.Method(), params, &n); err != nil {
			return nil, err
		}
		c.t.update(n)
		return nil, nil
	case "session/request_permission":
		var p acp.RequestPermissionRequest
		if err := c.decode(req.Method(), params, &p); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
		}
		optionID := c.t.permission(p)
		return permissionResponse{Outcome: permissionOutcome{Outcome: "selected", OptionID: optionID}}, nil
	}
	if !req.IsCall() {
		return nil, nil
	}
	return nil, jsonrpc2.ErrMethodNotFound
}

// decode decodes the params of the agent's frame into v. A frame that does
// not decode ends the run: the error names it.
func (c *demoClient) decode(method string, params json.RawMessage, v any) error {
	c.mu.Lock()
	c.frames++
	n := c.frames
	c.mu.Unlock()
	err := json.Unmarshal(params, v)
	if err == nil {
		return nil
	}
	err = fmt.Errorf("the agent's frame #%d (%s) does not decode: %w\n  params: %s", n, method, err, excerpt(params))
	c.mu.Lock()
	if c.failed == nil {
		c.failed = err
	}
	c.mu.Unlock()
	c.cancel()
	return err
}

// failure is the first frame that did not decode, or nil.
func (c *demoClient) failure() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failed
}

// excerpt is data as an error message shows it: at most 500 bytes.
func excerpt(data []byte) string {
	const limit = 500
	if len(data) > limit {
		return string(data[:limit]) + "…"
	}
	return string(data)
}

// The client's side of the messages the demo sends, and the results it
// reads that the acp vocabulary does not hold.
type (
	initializeRequest struct {
		ProtocolVersion    int                `json:"protocolVersion"`
		ClientCapabilities clientCapabilities `json:"clientCapabilities"`
		ClientInfo         implementation     `json:"clientInfo"`
	}
	clientCapabilities struct {
		FS       fileSystemCapability   `json:"fs"`
		Terminal bool                   `json:"terminal"`
		Meta     clientCapabilitiesMeta `json:"_meta"`
	}
	fileSystemCapability struct {
		ReadTextFile  bool `json:"readTextFile"`
		WriteTextFile bool `json:"writeTextFile"`
	}
	// clientCapabilitiesMeta opts into Zed's display-only terminal
	// convention.
	clientCapabilitiesMeta struct {
		TerminalOutput bool `json:"terminal_output"`
	}
	implementation struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	initializeResponse struct {
		ProtocolVersion int            `json:"protocolVersion"`
		AgentInfo       implementation `json:"agentInfo"`
	}
	newSessionRequest struct {
		Cwd        string     `json:"cwd"`
		McpServers []struct{} `json:"mcpServers"`
	}
	promptRequest struct {
		SessionID string      `json:"sessionId"`
		Prompt    []textBlock `json:"prompt"`
	}
	textBlock struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	promptResponse struct {
		StopReason string `json:"stopReason"`
	}
	permissionResponse struct {
		Outcome permissionOutcome `json:"outcome"`
	}
	permissionOutcome struct {
		Outcome  string `json:"outcome"`
		OptionID string `json:"optionId"`
	}
)
