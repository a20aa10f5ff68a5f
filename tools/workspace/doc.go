// Package workspace is what file tools see of a session's files: the
// working directory, the workspace roots, and the FileSystem that reads and
// writes text files. The local disk is one FileSystem; an editor that
// offers its own file access (and its unsaved buffers) is another, and
// tools work the same on both.
//
//	ws, err := workspace.New("/home/me/project", nil, workspace.Local{})
//	abs := ws.Resolve("src/main.go")    // /home/me/project/src/main.go
//	inside := ws.Contains(abs)          // true
//	data, err := ws.Files().ReadFile(ctx, abs)
package workspace
