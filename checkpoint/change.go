package checkpoint

import (
	"bytes"
	"time"
	"unicode/utf8"
)

// Checkpoint describes one recorded state of the workspace.
type Checkpoint struct {
	// ID names the checkpoint for Changes and Restore.
	ID string
	// Label is the text given when it was taken (one line).
	Label string
	// Time is when it was taken, to the second.
	Time time.Time
	// Skipped lists the files left out of it (over the size limit, nested
	// repositories, special files), by path.
	Skipped []Skipped
}

// Change is one file that differs between two states of the workspace.
type Change struct {
	// Path is the file's absolute path.
	Path string
	// Before and After are the file's content in the earlier and later
	// state; nil when the file is absent there. For a Binary change they
	// say only whether the file exists: their text is empty. For a
	// symbolic link they hold the link's target.
	Before, After *string
	// Binary is true when either side is not text: it has a NUL byte in
	// its first 8 KiB or is not valid UTF-8.
	Binary bool
	// Link is true when either side is a symbolic link.
	Link bool
}

// Reason says why a file was left out of a checkpoint or left as it was
// by a restore.
type Reason string

// The reasons of Skipped.
const (
	// ReasonTooLarge: the file is larger than Options.MaxFileSize.
	ReasonTooLarge Reason = "larger than the size limit"
	// ReasonNestedRepository: the directory is a git repository of its
	// own (or a submodule); nothing in it is recorded.
	ReasonNestedRepository Reason = "a nested git repository"
	// ReasonUnreadable: the file cannot be read (its permissions).
	ReasonUnreadable Reason = "it cannot be read"
	// ReasonInTheWay: restoring would replace a directory that is not
	// empty, or put a file below something that is not a directory.
	ReasonInTheWay Reason = "something else is in its place"
	// ReasonThroughLink: the file's directory is reached through a
	// symbolic link, which a restore never writes through.
	ReasonThroughLink Reason = "its directory is a symbolic link"
	// ReasonNotRecorded: the file's content before the turn was not
	// recorded (PreImages: it could not be read, or the memory budget was
	// spent).
	ReasonNotRecorded Reason = "its content before the turn was not recorded"
)

// The reasons of Restored.Conflicts: why Undo left a file the turn
// changed as it is.
const (
	// ReasonChangedSince: the file is no longer what the turn left (its
	// content, its executable bit or its kind changed since).
	ReasonChangedSince Reason = "it changed after the turn"
	// ReasonRemovedSince: the turn left a file there, and it has been
	// removed since.
	ReasonRemovedSince Reason = "it was removed after the turn"
	// ReasonRecreated: the turn deleted the file, and something is at its
	// path again.
	ReasonRecreated Reason = "the turn deleted it, and something is there again"
	// ReasonOtherSession: a turn of another session of the project ran at
	// the same time and changed the file too, so it is not known whose
	// change it is.
	ReasonOtherSession Reason = "another session's turn changed it at the same time"
	// ReasonIgnoreRulesChanged: the turn changed the .gitignore that
	// decides whether the file is recorded, and that .gitignore changed
	// again since, so what the file was before the turn is not known.
	ReasonIgnoreRulesChanged Reason = "the turn changed the ignore rules that apply to it, and they changed again since"
	// ReasonNoEnd: the turn's end was not recorded (dsh-acp stopped
	// during the turn), so its changes cannot be told from later ones.
	ReasonNoEnd Reason = "the end of the turn was not recorded"
)

// Skipped is a file a checkpoint left out, or a restore left as it is.
type Skipped struct {
	// Path is the file's absolute path.
	Path string
	// Reason says why.
	Reason Reason
	// Size is the file's size, for ReasonTooLarge.
	Size int64
}

// Restored is what Restore or Undo did.
type Restored struct {
	// Checkpoint is the checkpoint the workspace was put back to (for
	// Undo: the one taken at the start of the undone turn).
	Checkpoint Checkpoint
	// Changes are the files put back, sorted by path: Before is the
	// content a file had (nil: it did not exist), After the content it
	// has now (nil: it was removed).
	Changes []Change
	// Conflicts are the files the undone turn changed that are no longer
	// what it left (the user, the editor or another session changed them
	// since), sorted by path: Undo left each as it is, with the reason.
	// Restore has none.
	Conflicts []Skipped
	// Untouched are files that may differ from the checkpoint but were
	// left as they are, with the reason.
	Untouched []Skipped
	// Note is a sentence to show beside the result when the restore is
	// partial by design (FallbackNote for PreImages), or "".
	Note string
}

// sniffBytes is how much of a file is searched for a NUL byte to call it
// binary, as git and the file tools do.
const sniffBytes = 8 << 10

// isText reports whether data is text: no NUL byte in its first 8 KiB,
// and valid UTF-8 throughout.
func isText(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), sniffBytes)], 0) < 0 && utf8.Valid(data)
}

// side is one side of a change as the caller sees it.
type side struct {
	exists bool
	data   []byte
	link   bool
}

// newChange builds the Change at path from its two sides.
func newChange(path string, before, after side) Change {
	c := Change{Path: path, Link: before.link || after.link}
	c.Binary = (before.exists && !before.link && !isText(before.data)) ||
		(after.exists && !after.link && !isText(after.data))
	c.Before = sideText(before, c.Binary)
	c.After = sideText(after, c.Binary)
	return c
}

// sideText is a side's content as Change holds it.
func sideText(s side, binary bool) *string {
	if !s.exists {
		return nil
	}
	text := ""
	if !binary || s.link {
		text = string(s.data)
	}
	return &text
}
