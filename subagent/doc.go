// Package subagent lets an agent hand a task to a child agent: the task
// tool starts a child loop with its own history, instructions and tools,
// waits for it, and returns its final answer — or, when the caller asks
// for one with output_schema, a structured value guaranteed to match it.
//
//	runner, err := subagent.New(subagent.Options{
//		Pipeline: p, Scope: scope, Log: log, // the parent's
//		Agent:    agent.Options{Provider: provider, Model: info, Cwd: cwd},
//		Policy:   func(t subagent.Type) pipeline.PreExecute { return pol.PreExecuteAtMost(limit(t)) },
//		Types:    userTypes, // subagent.LoadTypes(...)
//	})
//	task, err := runner.Tool()
//	reg.Register(scope, task) // the parent's model may now call task
//
// A child's tools are its parent's, seen through a registry scope below
// the parent's with its type's restriction (an allow list, a deny list,
// or both, intersecting): never a copy, so the registry decides what a
// child may call, and its calls go through the parent's own pipeline,
// policy and approver — a child asks the user exactly as its parent does,
// and its permission preset is its parent's, bounded by its type, so a
// child never has more rights than its parent. Every call a child makes
// is nested in the task call (registry.Call.Parent).
//
// The built-in types are explore (read-only: the read tools, the
// language-server tools, read-only commands; parallel) and general
// (every tool of the parent but task). LoadTypes reads the user's own.
// Tasks of a parallel type overlap, Options.MaxParallel at once; each
// child has a step budget (Options.MaxSteps) and ends when the parent's
// turn is cancelled. A child's failure is its task's error result.
//
// Each child's events are recorded in the parent's log, as
// session.SubagentStarted, session.SubagentEvent for every event of the
// child's own log, and session.SubagentEnded, so the editor is shown
// the child as it works and a replay shows it again; the parent's model
// never reads them. What the child's calls hand on to the model after
// their batch (registry.Call.DeferContext) reaches the parent after the
// task's own result.
package subagent
