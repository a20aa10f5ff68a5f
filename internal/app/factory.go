package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"time"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/lsp"
	"github.com/dsh-acp/dsh-acp/mcp"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/sandbox"
	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/subagent"
	"github.com/dsh-acp/dsh-acp/tools/ask"
	"github.com/dsh-acp/dsh-acp/tools/fs"
	"github.com/dsh-acp/dsh-acp/tools/planmode"
	"github.com/dsh-acp/dsh-acp/tools/search"
	"github.com/dsh-acp/dsh-acp/tools/shell"
	"github.com/dsh-acp/dsh-acp/tools/todo"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// Config is what every session of a process shares.
type Config struct {
	// Provider is the model when Models is nil: every session uses it,
	// whatever its settings say.
	Provider llm.Provider
	// Models, when set, serves each session the model its settings name.
	Models Models
	// StateDir, when set, keeps each project's remembered permission
	// rules (and, later, its checkpoints); empty remembers nothing.
	StateDir string
	// LanguageServers turns on the language-server tools and the
	// diagnostics after edits; Servers overrides the built-in list (nil:
	// lsp.Defaults, each used when found on the PATH).
	LanguageServers bool
	Servers         []lsp.ServerConfig
	// MCPServers are servers every session uses, beside those the editor
	// sends (from the config file).
	MCPServers []mcp.Server
	// MCPCallTimeout bounds an MCP tool call (the package's default when 0).
	MCPCallTimeout time.Duration
	// CommandDirs hold the user's own slash commands (Markdown prompt
	// files), each with the directory its files must resolve into; each
	// session also reads its project's .dsh/commands (files resolving
	// inside the workspace root only), which win.
	CommandDirs []CommandDir
	// AgentDirs hold the user's own subagent types (Markdown files, see
	// subagent.LoadTypes); each session also reads its project's
	// .dsh/agents (files resolving inside the workspace root only), whose
	// types win.
	AgentDirs []subagent.Dir
	// Subagents bounds the sessions' child agents (MaxParallel,
	// MaxSteps, MaxDepth; the package's defaults when 0).
	Subagents SubagentLimits
	// Instructions finds a session's project instructions (AGENTS.md and
	// the like) for the system prompt; nil gives none.
	Instructions func(cwd string) (string, error)
	// Preset is the permission preset sessions start with;
	// policy.WorkspaceWrite when empty.
	Preset policy.Preset
	// Shell configures the bash tool. Its EnvAllow serves every program
	// a session starts: commands, MCP servers and language servers; its
	// Sandbox and SandboxPolicy are set from Sandbox.
	Shell shell.Options
	// Sandbox confines the commands under read-only and workspace-write.
	Sandbox Sandbox
	// Search configures grep and glob.
	Search search.Options
	// Files configures read, write and edit.
	Files fs.Options
	// MaxTokens caps each completion; 0 leaves it to the server.
	MaxTokens int
	// Logger receives contained failures.
	Logger *slog.Logger
	// Redactor, when set, hides the process's secrets (known keys, the
	// secret values of its environment) in what sessions send to the
	// model; the same Redactor serves acp.Options (the editor) and
	// session.StoreOptions (the disk).
	Redactor *secrets.Redactor
}

// Factory returns the bridge.Factory that builds sessions from cfg.
func Factory(cfg Config) bridge.Factory {
	if cfg.Preset == "" {
		cfg.Preset = policy.WorkspaceWrite
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return func(ctx context.Context, sc bridge.SessionConfig) (*live.Session, error) {
		return build(cfg, sc)
	}
}

func build(cfg Config, sc bridge.SessionConfig) (_ *live.Session, err error) {
	if cfg.Provider == nil && cfg.Models == nil {
		return nil, errors.New("no model provider configured")
	}
	fsys := files(sc)
	var undo *undoHistory
	if cfg.StateDir != "" {
		undo, fsys = newUndoHistory(sc.Roots[0], cfg.StateDir, sc.ID, fsys, cfg.Logger)
	}
	ws, err := workspace.New(sc.Cwd, sc.Roots[1:], fsys)
	if err != nil {
		return nil, err
	}
	log := session.NewLog(nil)
	if sc.History != nil {
		log = session.RestoreLog(sc.History, nil)
	}
	instructions := ""
	if cfg.Instructions != nil {
		if instructions, err = cfg.Instructions(ws.Cwd()); err != nil {
			cfg.Logger.Warn("project instructions not read", "session", sc.ID, "err", err)
		}
	}
	model := &sessionModel{models: cfg.Models, fallback: cfg.Provider}
	model.set(sc.Settings)
	reg := registry.New()
	scope := reg.NewScope(sc.ID, nil)
	var pol *policy.Policy // the preset in force decides each command's sandbox
	shellOpts := cfg.Shell
	if cfg.Sandbox.Sandbox != nil {
		shellOpts.Sandbox = cfg.Sandbox.Sandbox
		shellOpts.SandboxPolicy = func(dir string) (sandbox.Policy, bool) {
			return cfg.Sandbox.policyFor(pol.Preset(), ws, cfg.StateDir, dir)
		}
	}
	sh, err := shell.New(ws, shellOpts)
	if err != nil {
		return nil, fmt.Errorf("shell: %w", err)
	}
	defer func() {
		if err != nil {
			sh.Close()
			scope.Close()
		}
	}()
	notes := &notices{}
	langs := languageServers(cfg.LanguageServers, ws.Roots(), cfg.Servers, fsys, cfg, notes.add)
	defer func() {
		if err != nil && langs != nil {
			langs.Close()
		}
	}()
	fileOpts := cfg.Files
	if langs != nil {
		fileOpts.AfterWrite, fileOpts.AfterRead = langs.AfterWrite, langs.AfterRead
	}
	tools, err := sessionTools(ws, fileOpts, cfg, sh, log, sc.Asker)
	if err != nil {
		return nil, err
	}
	if sc.Plans != nil {
		exit, err := planmode.Tool(planmode.Options{
			InPlanMode: func() bool { return pol.Preset() == policy.Plan },
			Show:       func(plan string) { log.Append(session.PlanUpdated{Markdown: plan}) },
			Reviewer:   sc.Plans,
		})
		if err != nil {
			return nil, fmt.Errorf("exit_plan_mode tool: %w", err)
		}
		tools = append(tools, exit)
	}
	if langs != nil {
		tools = append(tools, langs.Tools()...)
	}
	for _, t := range tools {
		if _, err := reg.Register(scope, t); err != nil {
			return nil, fmt.Errorf("register %s: %w", t.Name(), err)
		}
	}
	preset := cfg.Preset
	if sc.Settings.Preset != "" {
		preset = sc.Settings.Preset
	}
	pol = policy.New(reg, ws, preset).WithDialect(sh.Dialect()).WithReport(notes.add)
	if cfg.Sandbox.Sandbox != nil {
		pol.WithSandbox(cfg.Sandbox.available())
	}
	if cfg.StateDir != "" {
		pol.WithRules(policy.OpenRuleBook(cfg.StateDir, ws.Roots()[0]))
	}
	p := pipeline.New(reg, pipeline.Options{Approver: sc.Approver, Logger: cfg.Logger})
	p.UsePreExecute(scope, pol.PreExecute)
	agentOpts := agent.Options{
		Provider: model, Model: model.info, Pipeline: p, Scope: scope, Log: log,
		Cwd: ws.Cwd(), Roots: ws.Roots(), MaxTokens: cfg.MaxTokens, Instructions: instructions, Logger: cfg.Logger,
		Redactor: cfg.Redactor, Sandbox: cfg.Sandbox.instructions(),
	}
	children, err := registerTask(cfg, agentOpts, pol, ws.Roots()[0], readOnlyShell(cfg, shellOpts, pol, ws))
	if err != nil {
		return nil, err
	}
	agentOpts.ClientPrompt = agent.ClientPrompt{Text: sc.SystemPrompt.Text, Override: sc.SystemPrompt.Override}
	ag, err := agent.New(agentOpts)
	if err != nil {
		return nil, err
	}
	if text := cfg.Sandbox.notice(); text != "" {
		notes.add(text)
	}
	for _, text := range sc.Problems {
		notes.add(text)
	}
	servers := slices.Clone(sc.MCPServers)
	for i := range servers {
		servers[i].Dir = ws.Cwd()
	}
	mcps := startMCP(append(slices.Clone(cfg.MCPServers), servers...), reg, scope,
		mcp.Options{Logger: cfg.Logger, CallTimeout: cfg.MCPCallTimeout, EnvAllow: cfg.Shell.EnvAllow}, notes)
	parts := live.Parts{
		Model: ag,
		Log:   log,
		Stop: func() {
			mcps.close()
			if langs != nil {
				if err := langs.Close(); err != nil {
					cfg.Logger.Warn("stopping language servers", "session", sc.ID, "err", err)
				}
			}
			if err := sh.Close(); err != nil {
				cfg.Logger.Warn("stopping background jobs", "session", sc.ID, "err", err)
			}
			scope.Close()
			if undo != nil {
				undo.close()
			}
		},
		Rules:    rulesOf(pol),
		Children: children,
		Commands: LoadCommands(append(slices.Clone(cfg.CommandDirs),
			CommandDir{Dir: filepath.Join(ws.Roots()[0], ".dsh", "commands"), Within: ws.Roots()[0]})...),
		Apply: func(s live.Settings) {
			model.set(s)
			if s.Preset != "" {
				pol.SetPreset(s.Preset)
			}
		},
		Logger: cfg.Logger.With("session", sc.ID),
	}
	if undo != nil {
		parts.Checkpoints = undo
	}
	sess, err := live.New(parts)
	if err != nil {
		return nil, err
	}
	notes.attach(sess.Tell)
	return sess, nil
}

// files is the session's file access: the editor's inside the roots when
// the client offers it, the disk everywhere else.
func files(sc bridge.SessionConfig) workspace.FileSystem {
	editor, ok := sc.Files.(bridge.EditorFiles)
	if !ok {
		return workspace.Local{}
	}
	return workspace.Split{Inside: editor, Outside: workspace.Local{}, Roots: sc.Roots}
}

// sessionTools builds the first-party tools bound to ws; ask_user only
// with an asker.
func sessionTools(ws *workspace.Workspace, fileOpts fs.Options, cfg Config, sh *shell.Shell, log *session.Log, asker ask.Asker) ([]*registry.Tool, error) {
	fileTools, err := fs.Tools(ws, fileOpts)
	if err != nil {
		return nil, fmt.Errorf("file tools: %w", err)
	}
	searchTools, err := search.Tools(ws, cfg.Search)
	if err != nil {
		return nil, fmt.Errorf("search tools: %w", err)
	}
	plan, err := planTool(log)
	if err != nil {
		return nil, err
	}
	tools := append(fileTools, searchTools...)
	tools = append(tools, sh.Tools()...)
	tools = append(tools, plan)
	if asker != nil {
		question, err := ask.Tool(asker)
		if err != nil {
			return nil, fmt.Errorf("ask tool: %w", err)
		}
		tools = append(tools, question)
	}
	return tools, nil
}

// planTool is the todo_write tool whose plan is log's.
func planTool(log *session.Log) (*registry.Tool, error) {
	plan, err := todo.Tool(func(items []todo.Item) {
		entries := make([]session.PlanEntry, len(items))
		for i, it := range items {
			entries[i] = session.PlanEntry{Content: it.Content, Status: string(it.Status), Priority: string(it.Priority)}
		}
		log.Append(session.PlanUpdated{Entries: entries})
	})
	if err != nil {
		return nil, fmt.Errorf("todo tool: %w", err)
	}
	return plan, nil
}

// rulesOf is the policy as the bridge's rule keeper, or nil when it
// remembers nothing (a nil *Policy inside the interface would not be).
func rulesOf(pol *policy.Policy) live.Rules {
	if pol.RuleBook() == nil {
		return nil
	}
	return pol
}
