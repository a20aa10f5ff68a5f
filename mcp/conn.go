package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// Error codes on the failed results of MCP tool calls.
const (
	// CodeToolError marks a result the server flagged with isError.
	CodeToolError = "MCP_TOOL_ERROR"
	// CodeServerStopped marks a call to a server that is no longer running,
	// or stopped during the call.
	CodeServerStopped = "MCP_SERVER_STOPPED"
	// CodeCallFailed marks any other failure to get a result from the server.
	CodeCallFailed = "MCP_CALL_FAILED"
)

// conn is one connected server: its session, its process (stdio only)
// and the tools it last listed.
type conn struct {
	cfg  Server
	proc *process // nil unless stdio
	// endLife ends the context an http or sse connection lives in.
	endLife context.CancelFunc
	// relisting serializes listing the tools again.
	relisting sync.Mutex

	mu      sync.Mutex
	session *sdk.ClientSession
	tools   []*sdk.Tool
	stopped error // why the server stopped on its own; nil while it runs
	closing bool
}

// running returns the session, or the error saying why the server is not
// running.
func (c *conn) running() (*sdk.ClientSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped != nil {
		return nil, c.stopped
	}
	if c.closing || c.session == nil {
		return nil, errors.New("the server was closed")
	}
	return c.session, nil
}

func (c *conn) listed() []*sdk.Tool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped != nil {
		return nil
	}
	return c.tools
}

func (c *conn) setTools(tools []*sdk.Tool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tools = tools
}

// call runs tool on the server with args and returns its content; an
// isError result, a stopped server and a failed request are coded errors.
// Cancelling ctx abandons the request (the SDK tells the server with
// notifications/cancelled) and returns ctx's error.
func (c *conn) call(ctx context.Context, tool string, args registry.Arguments) ([]presentation.ContentBlock, error) {
	session, err := c.running()
	if err != nil {
		return nil, &registry.Error{Code: CodeServerStopped, Message: fmt.Sprintf("MCP server %q is not running: %v", c.cfg.Name, err), Cause: err}
	}
	res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: json.RawMessage(args.JSON())})
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("MCP server %q, tool %q: %w", c.cfg.Name, tool, ctx.Err())
	case errors.Is(err, sdk.ErrConnectionClosed), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return nil, &registry.Error{Code: CodeServerStopped, Message: fmt.Sprintf("MCP server %q stopped during the call to %q: %v", c.cfg.Name, tool, err), Cause: err}
	case err != nil:
		return nil, &registry.Error{Code: CodeCallFailed, Message: fmt.Sprintf("MCP server %q, tool %q: %v", c.cfg.Name, tool, err), Cause: err}
	}
	blocks := contentBlocks(res)
	if res.IsError {
		msg := presentation.JoinText(blocks)
		if msg == "" {
			msg = fmt.Sprintf("MCP tool %q of server %q failed without a message", tool, c.cfg.Name)
		}
		return nil, registry.NewError(CodeToolError, msg)
	}
	return blocks, nil
}

// listTools returns every tool session offers, following pages.
func listTools(ctx context.Context, session *sdk.ClientSession) ([]*sdk.Tool, error) {
	var tools []*sdk.Tool
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list tools: %w", err)
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// failure stops what is left of c's process and returns err described,
// with the stderr tail when there is one.
func (c *conn) failure(what string, err error) error {
	c.endLife()
	tail := ""
	if c.proc != nil {
		c.proc.release()
		tail = c.proc.stderr.String()
	}
	if tail == "" {
		return fmt.Errorf("MCP server %q %s: %w", c.cfg.Name, what, err)
	}
	return fmt.Errorf("MCP server %q %s: %w; stderr:\n%s", c.cfg.Name, what, err, tail)
}

// close ends c's session and stops its process group.
func (c *conn) close() error {
	c.mu.Lock()
	c.closing = true
	session := c.session
	c.mu.Unlock()
	err := session.Close()
	c.endLife()
	if c.proc != nil {
		c.proc.release()
		err = nil // the exit status of a server told to stop says nothing
	}
	if err != nil && !errors.Is(err, sdk.ErrConnectionClosed) {
		return fmt.Errorf("MCP server %q: close: %w", c.cfg.Name, err)
	}
	return nil
}
