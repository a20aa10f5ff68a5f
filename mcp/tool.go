package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// defineTool returns the raw registry tool named name that calls tool on
// c. Its parameters are the server's input schema as sent, and arguments
// that break it fail with INVALID_ARGS before the server sees them (when
// the schema compiles; otherwise the server checks them); its effect is
// EffectExternal, so the policy asks before a call under every preset but
// full access (a server's tool may do anything); its card is a generic one
// titled "server: tool".
func defineTool(c *conn, name string, tool *sdk.Tool, timeout time.Duration, logger *slog.Logger) (*registry.Tool, error) {
	params := `{"type":"object"}`
	if tool.InputSchema != nil {
		data, err := json.Marshal(tool.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("input schema of %q: %w", tool.Name, err)
		}
		params = string(data)
	}
	check, err := compileArgsSchema(name, params)
	if err != nil {
		logger.Info("mcp tool arguments left to the server to check", "tool", name, "err", err)
		check = nil
	}
	description := tool.Description
	if description == "" {
		description = tool.Title
	}
	title := c.cfg.Name + ": " + tool.Name
	remote := tool.Name
	return registry.DefineRaw(registry.RawSpec{
		Name:        name,
		Description: description,
		Parameters:  params,
		Timeout:     timeout,
		Effect:      registry.EffectExternal,
		Execute: func(ctx context.Context, _ *registry.Call, args registry.Arguments) (any, error) {
			if check != nil {
				if err := check.check(args); err != nil {
					return nil, err
				}
			}
			blocks, err := c.call(ctx, remote, args)
			if err != nil {
				return nil, err
			}
			data, err := json.Marshal(blocks)
			if err != nil {
				return nil, fmt.Errorf("encode content of %q: %w", remote, err)
			}
			return jsonvalue.Parse(string(data))
		},
		Output: registry.RawOutput{
			Render: func(_ registry.Arguments, v jsonvalue.Value) ([]presentation.ContentBlock, error) {
				return presentation.DecodeContent([]byte(v.Canonical()))
			},
		},
		PresentCall: func(registry.Arguments) presentation.CallView {
			return presentation.GenericCallView{Title: title, Kind: presentation.KindOther}
		},
		PresentResult: func(_ registry.Arguments, r presentation.ToolResult) presentation.ResultView {
			return presentation.GenericResultView{Title: title, Content: presentation.CloneContent(r.Content)}
		},
	})
}
