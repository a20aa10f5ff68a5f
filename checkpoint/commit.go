package checkpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// metaPrefix starts the line of a checkpoint's commit message that holds
// its metadata; a commit without one is not a checkpoint.
const metaPrefix = "dsh-checkpoint: "

// commitMeta is what a checkpoint's commit records besides its tree.
type commitMeta struct {
	Version int `json:"v"`
	// At is when the checkpoint was taken, in nanoseconds since the Unix
	// epoch (the commit's own time has seconds only): Undo compares it
	// with other sessions' turns to find the ones that ran at the same
	// time. Checkpoints of older versions have none.
	At int64 `json:"t,omitempty"`
	// Running names the turns of other stacks that were running when the
	// checkpoint was taken (see turnName); only a turn's start has them.
	Running []string `json:"running,omitempty"`
	// Skipped are the files left out, paths relative to the root: a
	// restore leaves them alone.
	Skipped []skippedMeta `json:"skipped,omitempty"`
}

// skippedMeta is a Skipped as the commit message stores it.
type skippedMeta struct {
	Path   string `json:"p"`
	Reason Reason `json:"r"`
	Size   int64  `json:"s,omitempty"`
}

// record is a checkpoint as read from its commit: the public view, the
// tree, and the skipped paths relative to the root.
type record struct {
	cp      Checkpoint
	tree    string
	skipped []Skipped
	at      time.Time // when it was taken, as precisely as recorded
	running []string  // commitMeta.Running
}

// commit records st as a checkpoint labelled label, with the turns of
// other stacks running now, and returns it. The
// commit has no parent, so that dropping a checkpoint's ref lets git's
// garbage collection reclaim what only it used.
func (c *Checkpoints) commit(ctx context.Context, st staged, label string, running []string) (record, error) {
	label = oneLine(label)
	meta := commitMeta{Version: 1, At: time.Now().UnixNano(), Running: running}
	for _, s := range st.skipped {
		meta.Skipped = append(meta.Skipped, skippedMeta{Path: s.Path, Reason: s.Reason, Size: s.Size})
	}
	metaJSON, err := json.Marshal(meta)
	if err != nil {
		return record{}, fmt.Errorf("checkpoint: %w", err)
	}
	message := label + "\n\n" + metaPrefix + string(metaJSON) + "\n"
	out, err := c.git.run(ctx, []byte(message), "commit-tree", st.tree)
	if err != nil {
		return record{}, fmt.Errorf("checkpoint: %w", err)
	}
	id := strings.TrimSpace(string(out))
	return c.readRecord(ctx, id)
}

// readRecord reads the checkpoint id. An id that names no checkpoint
// fails with ErrUnknownCheckpoint.
func (c *Checkpoints) readRecord(ctx context.Context, id string) (record, error) {
	if !isObjectID(id) {
		return record{}, fmt.Errorf("%w: %q", ErrUnknownCheckpoint, id)
	}
	out, err := c.git.run(ctx, nil, "cat-file", "commit", id)
	if err != nil {
		if ctx.Err() != nil {
			return record{}, fmt.Errorf("checkpoint: %w", err)
		}
		return record{}, fmt.Errorf("%w: %s", ErrUnknownCheckpoint, id)
	}
	rec, err := parseCommit(id, out)
	if err != nil {
		return record{}, fmt.Errorf("%w: %s: %w", ErrUnknownCheckpoint, id, err)
	}
	rec.cp.Skipped = c.absSkipped(rec.skipped)
	return rec, nil
}

// parseCommit reads a raw commit object written by commit.
func parseCommit(id string, raw []byte) (record, error) {
	headers, message, ok := bytes.Cut(raw, []byte("\n\n"))
	if !ok {
		return record{}, errors.New("not a commit")
	}
	rec := record{cp: Checkpoint{ID: id}}
	for line := range strings.Lines(string(headers)) {
		key, value, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		switch key {
		case "tree":
			rec.tree = value
		case "committer":
			rec.cp.Time = signatureTime(value)
		}
	}
	label, rest, _ := strings.Cut(string(message), "\n")
	rec.cp.Label = label
	var meta *commitMeta
	for line := range strings.Lines(rest) {
		if data, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), metaPrefix); ok {
			meta = &commitMeta{}
			if err := json.Unmarshal([]byte(data), meta); err != nil {
				return record{}, fmt.Errorf("its metadata: %w", err)
			}
		}
	}
	if meta == nil || rec.tree == "" {
		return record{}, errors.New("not a checkpoint")
	}
	rec.at = rec.cp.Time
	if meta.At != 0 {
		rec.at = time.Unix(0, meta.At)
	}
	rec.running = meta.Running
	for _, s := range meta.Skipped {
		rec.skipped = append(rec.skipped, Skipped{Path: s.Path, Reason: s.Reason, Size: s.Size})
	}
	return rec, nil
}

// signatureTime returns the time of a git signature ("name <email> unix
// zone"), or the zero time.
func signatureTime(sig string) time.Time {
	fields := strings.Fields(sig[strings.LastIndexByte(sig, '>')+1:])
	if len(fields) == 0 {
		return time.Time{}
	}
	unix, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.Unix(unix, 0)
}

// isObjectID reports whether id looks like a full git object name (SHA-1
// or SHA-256, lowercase hex).
func isObjectID(id string) bool {
	if len(id) != 40 && len(id) != 64 {
		return false
	}
	for _, c := range []byte(id) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// oneLine returns label on one line: runs of white space (line breaks
// among them) become one space, and NUL bytes go.
func oneLine(label string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(label, "\x00", " ")), " ")
}
