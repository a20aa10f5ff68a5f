// Package app wires a dsh-acp session together: the workspace (the
// editor's file access inside the roots when the client offers it), the
// first-party tools, the permission policy, the pipeline and the agent.
// The command and the demo serve sessions built by the same Factory:
//
//	factory := app.Factory(app.Config{Provider: provider})
//	b := bridge.New(conn, bridge.Options{Name: "dsh-acp", Version: v, Factory: factory})
package app
