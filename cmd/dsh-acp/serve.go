package main

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/internal/app"
	"github.com/dsh-acp/dsh-acp/llm"
)

// defaultContextWindow is the model context size usage updates report.
const defaultContextWindow = 131072

// serve runs the ACP server on the program's stdin and stdout until the
// client goes away; it exits 0 then.
func serve(ctx context.Context, cfg config, io streams) int {
	logger, closeLog, err := openLogger(cfg, io.err)
	if err != nil {
		fmt.Fprintf(io.err, "dsh-acp: %v\n", err)
		return 2
	}
	defer closeLog()
	provider, err := llm.NewProvider(cfg.llm)
	if err != nil {
		fmt.Fprintf(io.err, "dsh-acp: %v\n", err)
		return 1
	}
	factory := app.Factory(app.Config{Provider: provider, Preset: cfg.preset, Logger: logger})
	var b *bridge.Bridge
	err = acp.Serve(ctx, io.in, io.out, func(conn *acp.Conn) acp.Agent {
		b = bridge.New(conn, bridge.Options{
			Name: "dsh-acp", Title: "dsh", Version: version(),
			Factory: factory, ContextWindow: defaultContextWindow, Logger: logger,
		})
		return b
	}, acp.Options{Logger: logger})
	if b != nil {
		b.Close()
	}
	if err != nil {
		logger.Error("connection failed", "err", err)
		return 1
	}
	return 0
}
