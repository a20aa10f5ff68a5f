package app

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/sandbox"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/subagent"
	"github.com/dsh-acp/dsh-acp/tools/ask"
	"github.com/dsh-acp/dsh-acp/tools/planmode"
	"github.com/dsh-acp/dsh-acp/tools/shell"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// SubagentLimits bound a session's child agents; 0 takes the subagent
// package's default.
type SubagentLimits struct {
	// MaxParallel is how many children run at once.
	MaxParallel int
	// MaxSteps is each child's budget of model requests per turn.
	MaxSteps int
	// MaxDepth is how deep children nest (1: children start none).
	MaxDepth int
}

// registerTask gives the session whose agent parent describes the task
// tool: its children share parent's pipeline, model and workspace, ask
// under pol bounded by their type, keep a plan of their own, a read-only
// child runs its commands in a shell of its own (readOnlyShell, when the
// commands are sandboxed: a read-only sandbox), and they come in
// the built-in types, the user's and the project's (root/.dsh/agents,
// which win). A type file that cannot be read is logged and skipped. It
// returns the runner, which stops a child alone.
func registerTask(cfg Config, parent agent.Options, pol *policy.Policy, root string, readOnlyShell func() (*shell.Shell, error)) (*subagent.Runner, error) {
	dirs := append(slices.Clone(cfg.AgentDirs), subagent.Dir{Dir: filepath.Join(root, ".dsh", "agents"), Within: root})
	types, problems := subagent.LoadTypes(dirs...)
	for _, err := range problems {
		cfg.Logger.Warn("subagent type skipped", "err", err)
	}
	opts := subagent.Options{
		Pipeline: parent.Pipeline, Scope: parent.Scope, Log: parent.Log, Agent: parent, Types: types,
		// Leaving plan mode is the parent's alone (the tool of plan mode,
		// where the session has it), and so is asking the user: a child
		// reports to its parent, which asks when it must.
		ParentOnly:  []string{planmode.Name, ask.Name},
		MaxParallel: cfg.Subagents.MaxParallel, MaxSteps: cfg.Subagents.MaxSteps, MaxDepth: cfg.Subagents.MaxDepth,
		Policy: func(t subagent.Type) pipeline.PreExecute {
			if t.ReadOnly {
				return pol.PreExecuteAtMost(policy.ReadOnly)
			}
			return pol.PreExecute
		},
		Tools: func(log *session.Log, t subagent.Type) ([]*registry.Tool, func(), error) {
			plan, err := planTool(log)
			if err != nil {
				return nil, nil, err
			}
			tools := []*registry.Tool{plan}
			if !t.ReadOnly || readOnlyShell == nil {
				return tools, nil, nil
			}
			sh, err := readOnlyShell()
			if err != nil {
				return nil, nil, fmt.Errorf("a read-only child's shell: %w", err)
			}
			stop := func() {
				if err := sh.Close(); err != nil {
					cfg.Logger.Warn("stopping a subagent's commands", "err", err)
				}
			}
			return append(tools, sh.Tools()...), stop, nil
		},
	}
	if cfg.Models != nil {
		opts.Models = func(name string) (llm.Provider, func() agent.ModelInfo, error) {
			p, err := cfg.Models.Provider(name, "")
			if err != nil {
				return nil, nil, err
			}
			return p, func() agent.ModelInfo { return cfg.Models.Info(name) }, nil
		}
	}
	runner, err := subagent.New(opts)
	if err != nil {
		return nil, fmt.Errorf("subagents: %w", err)
	}
	task, err := runner.Tool()
	if err != nil {
		return nil, fmt.Errorf("task tool: %w", err)
	}
	if _, err := parent.Pipeline.Registry().Register(parent.Scope, task); err != nil {
		return nil, fmt.Errorf("register task: %w", err)
	}
	return runner, nil
}

// readOnlyShell returns what makes a read-only child's shell: the
// session's shell options, its commands confined by the sandbox of the
// session's preset at most read-only — so even a command the policy let
// through (a read-only one, by its parse) changes nothing. Nil when the
// commands run in no sandbox.
func readOnlyShell(cfg Config, opts shell.Options, pol *policy.Policy, ws *workspace.Workspace) func() (*shell.Shell, error) {
	if cfg.Sandbox.Sandbox == nil {
		return nil
	}
	return func() (*shell.Shell, error) {
		opts := opts
		opts.SandboxPolicy = func(dir string) (sandbox.Policy, bool) {
			return cfg.Sandbox.policyFor(pol.Preset().AtMost(policy.ReadOnly), ws, cfg.StateDir, dir)
		}
		return shell.New(ws, opts)
	}
}
