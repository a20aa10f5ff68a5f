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
//	_, err = undo.Finish(ctx)                   // when the turn ends, cancelled or not
//	...                                         // the user edits, another session writes
//	restored, err := undo.Undo(ctx)             // /undo: what the turn changed, reverted
//	for _, c := range restored.Changes {
//		show(c.Path, c.Before, c.After) // Before is what /undo replaced
//	}
//	for _, c := range restored.Conflicts {
//		tell(c.Path, c.Reason) // changed since the turn: left as it is
//	}
//
// # Checkpoints
//
// Checkpoints keeps a shadow git repository per workspace root, driven with
// the git binary, in the state directory:
//
//	<state>/checkpoints/<hash of the root>/git            the repository (its own index too)
//	<state>/checkpoints/<hash of the root>/root           the root it belongs to
//	<state>/checkpoints/<hash of the root>/lock           held while one is taken or restored
//	<state>/checkpoints/<hash of the root>/turns/<stack>  held by a session while its turn runs
//
// The files of our own there are written atomically (a temporary file,
// synced, renamed). One that a full disk or a crash left broken claims
// nothing and stops nothing: an empty or unreadable root file is written
// again, a broken HEAD, shadow index or stack ref is removed and rebuilt
// (a broken ref loses the one turn it named).
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
// Restore and Undo leave all of these as they are: a file that is
// ignored, or was over the size limit when the checkpoint was taken or is
// now, is neither rewritten nor removed, even when it changed. When a
// .gitignore changed since the checkpoint, it is restored first and the
// workspace is read again under the restored rules, so a file that was
// ignored then is not mistaken for one the turn created. Undo restores a
// .gitignore the turn changed under its usual rule; a file the turn
// seems to have created below one it could not restore may have existed,
// ignored, before the turn, so it stays too, as a conflict
// (ReasonIgnoreRulesChanged).
//
// Paths in Change and Skipped are absolute, below Root (the root with its
// symbolic links resolved). The first checkpoint of a root reads and
// stores every file; later ones read only the files whose size or
// modification time changed, so their cost grows with the number of
// files only through git's stat of each. A restore removes the
// directories that removing a file leaves empty, including one that was
// empty at the checkpoint, since git does not record empty directories.
//
// # Undo
//
// Each turn takes two checkpoints: Push at its start and Finish at its
// end. They form a stack per session (Options.Stack), kept as refs in the
// shadow repository so that it survives a restart; Options.Keep bounds
// it. Undo undoes the turn on top and drops it, so the next Undo goes one
// turn further back. It never destroys work:
//
//   - It reverts only the paths the turn changed: those that differ
//     between its start and its end. A file the turn did not change is
//     never touched, and neither is one created after the turn.
//   - It reverts a path only while it is still what the turn left: the
//     same kind (file, link, absent), the same executable bit, the same
//     bytes as at the end. Then a file the turn changed gets its content
//     from before back (CRLF, a missing final newline and the mode
//     included), a file the turn created is removed, and a file the turn
//     deleted comes back, which needs nothing at its path now.
//   - Anything else at that path, changed since by the user, the editor,
//     another session or a command left running, stays as it is and is
//     listed in Restored.Conflicts with the reason. A path that is
//     already as it was before the turn is neither reverted nor a
//     conflict.
//
// Several turns undone in a row follow the same rule, each against the
// end of its own turn: after the undo of turn n, a path it reverted is
// as turn n started, which is where turn n-1 left it unless someone
// changed it between the two turns; so a path the user changed between
// the turns, or one that was a conflict for turn n, stays a conflict for
// turn n-1 too, and the user's content is kept all the way down.
//
// Sessions of one project share the repository (a file lock orders
// them), but not their stacks. While a session's turn runs it holds its
// turn lock, and Push records which other sessions' turns are running;
// Undo treats every path that such a turn, or one that started while
// this turn ran, changed as a conflict (ReasonOtherSession), since the
// snapshots cannot tell whose change it is. A session that stopped
// during its turn holds no lock and is no obstacle. What a program other
// than dsh-acp changes while a turn runs (between its two checkpoints)
// cannot be told from the turn's own changes; once the turn has ended it
// is never the turn's.
//
// A turn whose end was never taken has no known end: a cancelled turn
// does get one (the session calls Finish however the turn ends), but
// after a crash or a kill during the turn, nothing tells its changes
// from the ones made since. Undo then changes no file: it lists every
// file that differs from the turn's start as a conflict (ReasonNoEnd),
// says so in Restored.Note (NoEndNote) and drops the turn, so the next
// Undo goes on with the turn before, against that turn's own end.
//
// Restore, by contrast, makes the whole workspace equal to a checkpoint
// (every file it records), whatever changed since; the session's /undo
// does not use it.
//
// # Without git
//
// PreImages is the fallback where git is missing: a FileSystem wrapper
// that remembers each file's content (or absence) before the file tools
// first write it in a turn, and with Finish a digest of what the turn
// left there, with the same Push, Finish and Undo and the same rule: a
// file is reverted only while it is what the turn left, and the paths
// are only those the file tools wrote, so nobody else's file is ever
// touched. It covers only the file tools, not shell commands
// (FallbackNote says so), and lives in memory only, so it does not
// survive a restart.
package checkpoint
