package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/internal/app"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/llm"
)

// demo runs a scripted session in a fresh temporary workspace through the
// real stack — the ACP server, the bridge, the pipeline and the tools, over
// an in-process pipe — under the --permission preset, and prints what an
// editor would show. It exits 0 when the session did what the script
// says.
func demo(ctx context.Context, cfg config, io streams) int {
	dir, err := os.MkdirTemp("", "dsh-acp-demo-*")
	if err != nil {
		fmt.Fprintf(io.err, "dsh-acp demo: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		dir = resolved
	}
	model, err := llm.ReadScript(strings.NewReader(demoScript), "demo script")
	if err != nil {
		fmt.Fprintf(io.err, "dsh-acp demo: %v\n", err)
		return 1
	}
	if cfg.logFile == "" && cfg.logLevel < slog.LevelWarn {
		cfg.logLevel = slog.LevelWarn // the transcript is the demo's output
	}
	logger, closeLog, err := openLogger(cfg, io.err)
	if err != nil {
		fmt.Fprintf(io.err, "dsh-acp demo: %v\n", err)
		return 2
	}
	defer closeLog()

	toServer, fromClient := pipe()
	toClient, fromServer := pipe()
	served := make(chan error, 1)
	var b *bridge.Bridge
	go func() {
		served <- acp.Serve(ctx, toServer, fromServer, func(conn *acp.Conn) acp.Agent {
			b = bridge.New(conn, bridge.Options{
				Name: "dsh-acp", Title: "dsh", Version: version(),
				Factory:  app.Factory(app.Config{Provider: model, Preset: cfg.preset, Logger: logger, Sandbox: sandboxOf(cfg)}),
				Defaults: live.Settings{Preset: cfg.preset},
			})
			return b
		}, acp.Options{Logger: logger})
	}()

	t := newTranscript(io.out, dir, cfg.demoVerbose)
	reason, runErr := runDemoClient(ctx, toClient, fromClient, dir, cfg.preset, t)
	// The client goes away: the server reads EOF, and anything it still
	// writes fails instead of waiting for a reader.
	fromClient.Close()
	toClient.Close()
	if err := <-served; err != nil && runErr == nil {
		runErr = err
	}
	if b != nil {
		b.Close()
	}
	if runErr != nil {
		fmt.Fprintf(io.err, "dsh-acp demo: %v\n", runErr)
		return 1
	}
	return t.finish(reason, filepath.Join(dir, "greet.sh"))
}

// pipe returns the two ends of an in-process byte stream.
func pipe() (io.ReadCloser, io.WriteCloser) {
	return io.Pipe()
}
