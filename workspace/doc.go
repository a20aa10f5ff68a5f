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
//
// A path counts as inside the workspace by where it leads once its
// symbolic links are followed, dangling links included (Target), so a
// link to a file outside that does not exist yet is outside. A path with
// a NUL byte names no file: Abs and ValidatePath refuse it, and Resolve
// keeps the NUL rather than cleaning it away. Local reads and writes
// regular files only (a *NotRegularError for a named pipe, socket or
// device), never blocking on one, and its atomic writes clean up the
// temporary files that killed writes leave behind.
//
// This package is the module's one containment seam: Locate and Within
// (and a Workspace's Contains, built on the same resolution) decide
// whether a path is inside once its links are followed, and Under and
// Relative are the one lexical "below" every other package compares
// already-resolved paths with.
package workspace
