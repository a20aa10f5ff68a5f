package live

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// ErrRewindCompacted refuses a /rewind of a turn that a summary of the
// conversation (a compaction since) covers: the summary cannot be made
// to forget it. /undo can still revert its files.
var ErrRewindCompacted = errors.New("the turn is part of the conversation's summary")

// Rewound is what a /rewind did.
type Rewound struct {
	// Dropped is false when the conversation held no turn to rewind; then
	// nothing changed.
	Dropped bool
	// Prompt is the text of the prompt of the turn dropped.
	Prompt string
	// Undone is what reverting the turn's files did, as Undo says it.
	// Undone.Turn is false when no checkpoint of the turn was left (an
	// /undo reverted it already, or none was taken): no file was touched.
	Undone
}

// Rewind takes back the last turn of the conversation: its files are
// reverted as Undo reverts them when its checkpoint is the latest (when
// it is not — an /undo reverted the turn already, or no checkpoint was
// taken — no file is touched), and the turn — its
// prompt, the user's messages steered into it, and everything after it,
// the exchanges of /undo and other commands included — is dropped from
// the conversation the model sees, in memory and in the log
// (session.Rewound), so that a loaded session neither sends nor replays
// it. Repeated, it goes one turn further back each time. reply words what
// was done for the user: the Rewound event records it, and the client is
// shown it live. The model is told of the files left as they are (they
// hold what the dropped turn did). A session that keeps no checkpoints
// fails with ErrNoUndo, a turn a compaction summary covers with
// ErrRewindCompacted; neither changes anything.
func (t *Turn) Rewind(ctx context.Context, reply func(Rewound) string) (Rewound, error) {
	s := t.s
	cp := s.parts.Checkpoints
	if cp == nil {
		return Rewound{}, ErrNoUndo
	}
	events := session.WithoutRewound(s.parts.Log.Events(), nil)
	target, found := lastTurn(events)
	if !found {
		return Rewound{}, nil
	}
	if compactedSince(events, target.from) {
		return Rewound{}, ErrRewindCompacted
	}
	label, ok, err := cp.Latest(ctx)
	if err != nil {
		return Rewound{}, err
	}
	r := Rewound{Dropped: true, Prompt: target.prompt}
	if n, labeled := labeledTurn(label); ok && labeled && n == target.turn {
		if r.Undone, err = cp.Undo(ctx); err != nil {
			return Rewound{}, err
		}
	}
	if len(r.Files) > 0 {
		s.parts.Log.Append(session.FilesRestored{Files: r.Files})
	}
	s.parts.Log.Append(session.Rewound{From: target.from, Reply: reply(r)})
	if len(r.Conflicts) > 0 {
		s.parts.Log.Append(session.ContextMessage{Message: rewindContext(r.Conflicts)})
	}
	return r, nil
}

// turnLabel is the label of the checkpoint taken before turn n.
func turnLabel(n int) string { return "before turn " + strconv.Itoa(n) }

// labeledTurn is the turn a checkpoint labelled by turnLabel was taken
// before.
func labeledTurn(label string) (int, bool) {
	rest, ok := strings.CutPrefix(label, "before turn ")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0
}

// rewindTarget is the turn a rewind drops, found in the conversation.
type rewindTarget struct {
	turn   int    // its number
	from   int64  // the Seq of its TurnStarted
	prompt string // its prompt's text
}

// lastTurn finds the last turn among events; found is false when they
// hold none.
func lastTurn(events []session.Event) (target rewindTarget, found bool) {
	for _, ev := range events {
		switch p := ev.Payload.(type) {
		case session.TurnStarted:
			target, found = rewindTarget{turn: ev.Turn, from: ev.Seq}, true
		case session.UserMessage:
			if found && target.prompt == "" && !p.Steered && ev.Turn == target.turn {
				target.prompt = presentation.JoinText(p.Content)
			}
		}
	}
	return target, found
}

// compactedSince reports whether a summary among events covers the
// event numbered from or a later one.
func compactedSince(events []session.Event, from int64) bool {
	for _, ev := range events {
		if c, ok := ev.Payload.(session.Compacted); ok && c.Through >= from {
			return true
		}
	}
	return false
}

// rewindContext tells the model of the files a rewind left as they are:
// the turn they hold changes of is gone from the conversation.
func rewindContext(conflicts []UndoConflict) registry.ContextMessage {
	return registry.UserContext("Files changed outside this conversation, left as they are: " +
		joinPaths(conflicts, func(c UndoConflict) string { return c.Path }) +
		". Read them again before relying on their content.")
}
