package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"go.lsp.dev/jsonrpc2"

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
// hands every update to the transcript.
func runDemoClient(ctx context.Context, r io.ReadCloser, w io.WriteCloser, dir string, preset policy.Preset, t *transcript) (string, error) {
	ctx, cancel := context.WithCancel(ctx)
	conn := jsonrpc2.NewConn(jsonrpc2.NewNDJSONStream(duplex{r, w}))
	conn.Go(ctx, func(_ context.Context, req *jsonrpc2.Request) (any, error) {
		params := append(json.RawMessage(nil), req.Params()...)
		switch req.Method() {
		case "session/update":
			t.update(params)
			return nil, nil
		case "session/request_permission":
			optionID := t.permission(params)
			return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": optionID}}, nil
		}
		if !req.IsCall() {
			return nil, nil
		}
		return nil, jsonrpc2.ErrMethodNotFound
	})
	defer func() {
		// Closing the reader ends the connection's read loop, which Close
		// waits for.
		cancel()
		r.Close()
		conn.Close()
	}()

	initialize := map[string]any{
		"protocolVersion": 1,
		"clientCapabilities": map[string]any{
			"fs":       map[string]any{"readTextFile": false, "writeTextFile": false},
			"terminal": false,
			"_meta":    map[string]any{"terminal_output": true},
		},
		"clientInfo": map[string]any{"name": "dsh-acp-demo", "version": version()},
	}
	var info struct {
		ProtocolVersion int `json:"protocolVersion"`
		AgentInfo       struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"agentInfo"`
	}
	if _, err := conn.Call(ctx, "initialize", initialize, &info); err != nil {
		return "", fmt.Errorf("initialize: %w", err)
	}
	t.header(info.AgentInfo.Name, info.AgentInfo.Version, info.ProtocolVersion, preset)

	var created struct {
		SessionID string `json:"sessionId"`
	}
	if _, err := conn.Call(ctx, "session/new", map[string]any{"cwd": dir, "mcpServers": []any{}}, &created); err != nil {
		return "", fmt.Errorf("session/new: %w", err)
	}
	if created.SessionID == "" {
		return "", errors.New("session/new: no session id")
	}

	t.user(demoPrompt)
	var answer struct {
		StopReason string `json:"stopReason"`
	}
	prompt := map[string]any{"sessionId": created.SessionID, "prompt": []any{map[string]any{"type": "text", "text": demoPrompt}}}
	if _, err := conn.Call(ctx, "session/prompt", prompt, &answer); err != nil {
		return "", fmt.Errorf("session/prompt: %w", err)
	}
	return answer.StopReason, nil
}
