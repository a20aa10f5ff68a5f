package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/internal/app"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/tools/shell"
)

// modelListTimeout bounds the background request for the model server's
// list of models.
const modelListTimeout = 30 * time.Second

// serve runs the ACP server on the program's stdin and stdout until the
// client goes away (stdin ends, or stdout is closed) or ctx is cancelled
// (SIGINT, SIGTERM). Cancelling ctx ends every running turn, answered
// "cancelled", and stops every command and background job before the
// connection closes; it never waits for stdin. serve exits 0 in all these
// cases, 1 when the connection fails otherwise.
func serve(ctx context.Context, cfg config, io streams) int {
	logger, closeLog, err := openLogger(cfg, io.err)
	if err != nil {
		fmt.Fprintf(io.err, "dsh-acp: %v\n", err)
		return 2
	}
	defer closeLog()
	hintIfTerminal(io.in, io.err)
	cfg.llm.Logger = logger // chunks the model server sent that could not be read
	catalog, err := newCatalog(cfg)
	if err != nil {
		fmt.Fprintf(io.err, "dsh-acp: %v\n", err)
		return 1
	}
	listCtx, stopListing := context.WithTimeout(ctx, modelListTimeout)
	var listing sync.WaitGroup
	listing.Go(func() {
		if err := catalog.FetchListed(listCtx); err != nil {
			logger.Debug("the model server's model list is not offered", "err", err)
		}
	})
	defer listing.Wait()
	defer stopListing()
	// One Redactor for what goes to the editor, the model and the disk.
	red := secrets.NewRedactor(heldSecrets(cfg)...)
	store := openStore(cfg, logger, red)
	factory := app.Factory(app.Config{Models: catalog, Preset: cfg.preset, Logger: logger, StateDir: cfg.stateDir, Redactor: red,
		CommandDirs: userCommandDirs(cfg), AgentDirs: userAgentDirs(cfg), LanguageServers: true, Servers: languageServersOf(cfg.settings),
		MCPServers: mcpServersOf(cfg.settings), Sandbox: sandboxOf(cfg), Subagents: app.SubagentLimits(cfg.settings.Subagents),
		Shell: shell.Options{EnvAllow: cfg.shellEnvAllow}, Instructions: agent.ProjectInstructions})
	opts := bridge.Options{
		Name: "dsh-acp", Title: "dsh", Version: version(),
		Factory: factory, Logger: logger, Store: store, Models: catalog.Choices, MCPRemote: true,
		Defaults: live.Settings{Model: cfg.modelName(), Effort: cfg.llm.ReasoningEffort, Preset: cfg.preset},
		Auth:     auth(cfg, catalog),
		Redactor: red,
	}

	in := detach(io.in)
	defer in.Close()
	// The connection outlives ctx: the shutdown ends it once every turn
	// has been answered.
	connCtx, closeConn := context.WithCancel(context.WithoutCancel(ctx))
	defer closeConn()
	served := make(chan struct{})
	var shutdown sync.WaitGroup
	var agent *answeringAgent
	err = acp.Serve(connCtx, in, io.out, func(conn *acp.Conn) acp.Agent {
		agent = &answeringAgent{Bridge: bridge.New(conn, opts)}
		shutdown.Go(func() { shutDownOnCancel(ctx, served, agent, closeConn, logger) })
		return agent
	}, acp.Options{Logger: logger, Redactor: red})
	close(served)
	shutdown.Wait()
	if agent != nil {
		agent.Close()
	}
	switch {
	case err == nil:
		return 0
	case ctx.Err() != nil:
		logger.Info("stopped", "cause", context.Cause(ctx))
		return 0
	case closedPipe(err):
		logger.Info("the client closed stdout; stopped", "err", err)
		return 0
	default:
		logger.Error("connection failed", "err", err)
		return 1
	}
}

// shutDownOnCancel waits for ctx to be cancelled while the connection is
// served; then it ends every turn and stops every command (the prompts
// answer "cancelled" while the connection is still open), waits until
// each prompt has returned its answer, and closes the connection.
func shutDownOnCancel(ctx context.Context, served <-chan struct{}, agent *answeringAgent, closeConn func(), logger *slog.Logger) {
	select {
	case <-ctx.Done():
	case <-served:
		return
	}
	logger.Info("shutting down: cancelling every turn and stopping every command", "cause", context.Cause(ctx))
	agent.Close()
	agent.waitAnswered()
	closeConn()
}
