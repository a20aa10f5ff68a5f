// Package bridge puts the agent in front of editors: it implements the ACP
// agent methods on top of sessions, and shows each session's events in the
// editor the way it shows things best — file edits as diffs to review,
// commands as live terminals, locations to follow, and the editor's own
// approval prompt wherever policy asks.
//
//	err := acp.Serve(ctx, os.Stdin, os.Stdout, func(conn *acp.Conn) acp.Agent {
//		b = bridge.New(conn, bridge.Options{Name: "dsh-acp", Version: version, Factory: newSession})
//		return b
//	}, acp.Options{Logger: logger})
//	b.Close() // after the client went away: ends every turn, stops every process
//
// The Factory builds a session's parts (workspace, tools, policy, pipeline,
// agent) from the SessionConfig the bridge hands it: the working
// directory, the roots, the editor's file access when the client offers
// it, the approver that turns "ask" into session/request_permission, and
// the plan reviewer that asks whether to implement the plan the model
// presents in plan mode and, when the user says so, switches the session
// back to the preset it had before, as the user's own mode switch does.
//
// What only the unstable schema defines goes only to a client that
// advertised it: plans as plan_update and plan_removed to a client with
// clientCapabilities.plan, as the one plan update to the others.
//
// Order on the wire: a session's updates go out in the order its events
// happened, and every request a session makes to the editor (a permission
// prompt, a file read or write) goes out after every update it queued
// before it, so the editor always knows the tool call a request is about.
package bridge
