package bridge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/live"
)

// rewind answers /rewind: the last checkpointed turn is undone and
// dropped from the conversation. Its reply is logged with the rewind
// (session.Rewound), so that a replay, which leaves the rewound turns
// out, leaves the exchange out too; a refusal is the command's answer.
func (s *liveSession) rewind(ctx context.Context, t *live.Turn, _ string) (string, error) {
	r, err := t.Rewind(ctx, func(r live.Rewound) string { return rewindReply(r, s.mapper.opts.Cwd) })
	switch {
	case errors.Is(err, live.ErrRewindCompacted):
		return "Cannot rewind the last turn: a summary of the conversation covers it since it was compacted, and the summary cannot forget it. /undo can still revert its files.", nil
	case err != nil:
		return "", err
	case !r.Turn:
		return "Nothing to rewind: no earlier turn is kept to take back.", nil
	}
	return "", nil // logged with the rewind
}

// rewindReply is what the user reads after a /rewind: the turn dropped,
// then, as undoReply says them, the files put back and those left as
// they are.
func rewindReply(r live.Rewound, cwd string) string {
	var b strings.Builder
	quoted := promptTitle(r.Prompt)
	if quoted != "" {
		quoted = fmt.Sprintf(" (%q)", quoted)
	}
	if later := r.Turns - 1; later > 0 {
		fmt.Fprintf(&b, "Dropped the turn%s and the %d %s after it from the conversation: the model no longer sees them.\n",
			quoted, later, plural(later, "turn", "turns"))
	} else {
		fmt.Fprintf(&b, "Dropped the last turn%s from the conversation: the model no longer sees it.\n", quoted)
	}
	if len(r.Files) == 0 && len(r.Conflicts) == 0 {
		b.WriteString("It changed no file; nothing to revert.\n")
	}
	return revertedFiles(&b, r.Undone, "the turn", cwd)
}
