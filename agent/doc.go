// Package agent is the coding agent's loop: a model step streams the
// model's answer into the session log, the tool calls it made run through
// the pipeline — parallel-safe calls overlapped, the rest one at a time,
// results committed in model order — and the loop continues until the
// model stops calling tools, the turn is cancelled, or a limit is reached.
//
//	a, err := agent.New(agent.Options{
//		Provider: provider,          // llm.Provider
//		Pipeline: p,                 // tools registered in scope, policy installed
//		Scope:    scope,
//		Log:      log,               // session.Log the editor bridge watches
//		Cwd:      "/home/me/project",
//	})
//	reason, err := a.Prompt(ctx, []presentation.ContentBlock{presentation.Text("fix the failing test")})
//
// Cancelling ctx ends the turn with session.StopCancelled: nothing new
// starts, running calls are cancelled and drained, and calls never started
// get ABORTED_BEFORE_DISPATCH results so the model's context stays whole.
// A tool body that ignores its cancellation or timeout cannot hold the
// turn: the pipeline abandons it after its grace (pipeline.Options
// BodyGrace) and the call fails with ABORTED or TOOL_TIMEOUT, so the turn
// ends or goes on and the next prompt is served.
package agent
