package bridge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/live"
)

// rewind answers /rewind: the last turn is undone and dropped from the
// conversation. Its reply is logged with the rewind
// (session.Rewound), so that a replay, which leaves the rewound turns
// out, leaves the exchange out too; a refusal is the command's answer.
func (s *liveSession) rewind(ctx context.Context, t *live.Turn, _ string) (string, error) {
	r, err := t.Rewind(ctx, func(r live.Rewound) string { return rewindReply(r, s.mapper.opts.Cwd) })
	switch {
	case errors.Is(err, live.ErrRewindCompacted):
		return "Cannot rewind the last turn: a summary of the conversation covers it since it was compacted, and the summary cannot forget it. /undo can still revert its files.", nil
	case err != nil:
		return "", err
	case !r.Dropped:
		return "Nothing to rewind: the conversation has no turn to take back.", nil
	}
	return "", nil // logged with the rewind
}

// rewindReply is what the user reads after a /rewind: the turn dropped,
// then, as undoReply says them, the files put back and those left as
// they are — or that no checkpoint of the turn was left to revert.
func rewindReply(r live.Rewound, cwd string) string {
	var b strings.Builder
	quoted := promptTitle(r.Prompt)
	if quoted != "" {
		quoted = fmt.Sprintf(" (%q)", quoted)
	}
	fmt.Fprintf(&b, "Dropped the last turn%s from the conversation: the model no longer sees it.\n", quoted)
	switch {
	case !r.Turn:
		b.WriteString("No checkpoint of it was left (an /undo reverted it already, or none was taken): no file was reverted.\n")
	case len(r.Files) == 0 && len(r.Conflicts) == 0:
		b.WriteString("It changed no file; nothing to revert.\n")
	}
	return revertedFiles(&b, r.Undone, "the turn", cwd)
}
