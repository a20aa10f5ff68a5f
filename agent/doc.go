// Package agent is the coding agent's loop: a model step streams the
// model's answer into the session log, the tool calls it made run through
// the pipeline — parallel-safe calls overlapped, the rest one at a time,
// results committed in model order — and the loop continues until the
// model stops calling tools, the turn is cancelled, or a limit is reached.
//
//	instructions, err := agent.ProjectInstructions("/home/me/project") // AGENTS.md and friends
//	a, err := agent.New(agent.Options{
//		Provider:     provider,      // llm.Provider
//		Pipeline:     p,             // tools registered in scope, policy installed
//		Scope:        scope,
//		Log:          log,           // session.Log the editor bridge watches
//		Cwd:          "/home/me/project",
//		Instructions: instructions,
//		Model: func() agent.ModelInfo { // asked before every request
//			return agent.ModelInfo{Name: "deepseek-v4-flash", ContextWindow: 128_000, Cost: price}
//		},
//	})
//	reason, err := a.Prompt(ctx, []presentation.ContentBlock{presentation.Text("fix the failing test")})
//
// Every usage a request reports is logged with the model's name, its
// context window and the request's cost. When the next request would not
// fit the window, the oldest turns are first compacted: the model writes a
// summary of them, a session.Compacted event records it, and from then on
// the model sees the summary in their place. Only whole turns are
// summarized, so each tool call still meets its result, and the current
// turn and the most recent completed one are always kept as they are.
//
// Cancelling ctx ends the turn with session.StopCancelled: nothing new
// starts, running calls are cancelled and drained, and calls never started
// get ABORTED_BEFORE_DISPATCH results so the model's context stays whole.
// A tool body that ignores its cancellation or timeout cannot hold the
// turn: the pipeline abandons it after its grace (pipeline.Options
// BodyGrace) and the call fails with ABORTED or TOOL_TIMEOUT, so the turn
// ends or goes on and the next prompt is served.
package agent
