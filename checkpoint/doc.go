// Package checkpoint records the files of a workspace before each turn of
// the agent and puts them back on /undo, whether the turn changed them
// with the file tools or with shell commands.
//
//	var undo checkpoint.Undoer
//	cps, err := checkpoint.Open(ctx, checkpoint.Options{Root: "/home/me/project", StateDir: state, Stack: sessionID})
//	switch {
//	case err == nil:
//		undo = cps
//	case errors.Is(err, checkpoint.ErrNoGit):
//		// No git: remember what the file tools overwrite instead.
//		pre := checkpoint.NewPreImages(workspace.Local{}, checkpoint.PreImagesOptions{})
//		files = pre.Files() // the FileSystem the file tools use from now on
//		undo = pre
//	}
//	cp, err := undo.Push(ctx, "turn 3")         // before the turn
//	...                                         // the turn writes, edits, runs commands
//	changes, err := cps.Changes(ctx, cp.ID, "") // what the turn changed so far (git only)
//	restored, err := undo.Undo(ctx)             // /undo: the files as they were at cp
//	for _, c := range restored.Changes {
//		show(c.Path, c.Before, c.After) // Before is what /undo replaced
//	}
//
// # Checkpoints
//
// Checkpoints keeps a shadow git repository per workspace root, driven with
// the git binary, in the state directory:
//
//	<state>/checkpoints/<hash of the root>/git    the repository (its own index too)
//	<state>/checkpoints/<hash of the root>/root   the root it belongs to
//	<state>/checkpoints/<hash of the root>/lock   held while one is taken or restored
//
// Its work tree is the root, but the user's own repository (the root's
// .git, or any repository above or below it) is never written, and git runs
// without the user's or the system's configuration, hooks or signing, and
// with every attribute that would convert content (text, eol, filter,
// ident, working-tree-encoding) switched off, so a checkpoint holds each
// file's bytes as they are: CRLF line endings, a missing final newline and
// binary content come back byte for byte, and so do the executable bit and
// symbolic links.
//
// A checkpoint holds every file of the root except
//   - files that git ignores: the project's .gitignore files, its
//     .git/info/exclude, and the patterns of .gitignore files above the
//     root up to the repository that contains it (when the root is a
//     subdirectory of one; patterns anchored elsewhere than the root's path
//     are left out). The user's global excludes file is not read.
//   - files larger than Options.MaxFileSize (10 MiB by default), reported
//     in Checkpoint.Skipped,
//   - nested git repositories and submodules (directories with a .git of
//     their own) and files it may not read, reported too, and anything
//     that is not a regular file or a symbolic link,
//   - empty directories, which git does not record.
//
// Restore leaves all of these as they are: a file that is ignored, or was
// over the size limit when the checkpoint was taken or is now, is neither
// rewritten nor removed, even when it changed. When a .gitignore changed
// since the checkpoint, it is restored first and the workspace is read
// again under the restored rules, so a file that was ignored then is not
// mistaken for one the turn created.
//
// Paths in Change and Skipped are absolute, below Root (the root with its
// symbolic links resolved). The first checkpoint of a root reads and
// stores every file; later ones read only the files whose size or
// modification time changed, so their cost grows with the number of
// files only through git's stat of each. A restore removes the
// directories that removing a file leaves empty, including one that was
// empty at the checkpoint, since git does not record empty directories.
//
// Checkpoints taken with Push form a stack per session (Options.Stack),
// kept as refs in the shadow repository so that it survives a restart;
// Undo restores the newest and drops it, so the next Undo goes one turn
// further back. Options.Keep bounds the stack. Two sessions of one
// project share the repository (a file lock orders them), but not their
// stacks; note that restoring puts back every file of the workspace, so
// undoing in one session also reverts what another changed in the
// meantime.
//
// # Without git
//
// PreImages is the fallback where git is missing: a FileSystem wrapper
// that remembers each file's content (or absence) before the file tools
// first write it in a turn, with the same Push and Undo. It covers only
// the file tools, not shell commands (FallbackNote says so), and lives in
// memory only, so it does not survive a restart.
package checkpoint
