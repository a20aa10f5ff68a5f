package bridge

import (
	"strings"

	"github.com/dsh-acp/dsh-acp/acp"
)

// chunkKind tells the three text chunk updates apart.
type chunkKind int

const (
	notAChunk chunkKind = iota
	messageChunk
	thoughtChunk
	userChunk
)

// textChunk returns a chunk's kind and text when it is a plain text chunk
// (no annotations, no _meta), the only chunks merged.
func textChunk(u acp.Update) (chunkKind, acp.ContentChunk) {
	var (
		kind  chunkKind
		chunk acp.ContentChunk
	)
	switch c := u.(type) {
	case acp.AgentMessageChunk:
		kind, chunk = messageChunk, acp.ContentChunk(c)
	case acp.AgentThoughtChunk:
		kind, chunk = thoughtChunk, acp.ContentChunk(c)
	case acp.UserMessageChunk:
		kind, chunk = userChunk, acp.ContentChunk(c)
	default:
		return notAChunk, chunk
	}
	t, ok := chunk.Content.(acp.TextContent)
	if !ok || t.Annotations != nil || t.Meta != nil || chunk.Meta != nil {
		return notAChunk, chunk
	}
	return kind, chunk
}

// mergeTextChunks merges each run of consecutive plain text chunks of the
// same kind and message in a batch into one chunk holding their text in
// order, so a burst of deltas that queued up while the client was being
// written to goes out as one notification. Any other update ends a run,
// so the order the editor sees is unchanged. It reuses batch's array.
func mergeTextChunks(batch []acp.Update) []acp.Update {
	out := batch[:0]
	for i := 0; i < len(batch); {
		kind, first := textChunk(batch[i])
		j := i + 1
		for kind != notAChunk && j < len(batch) {
			k, next := textChunk(batch[j])
			if k != kind || next.MessageID != first.MessageID {
				break
			}
			j++
		}
		if j-i == 1 {
			out = append(out, batch[i])
		} else {
			out = append(out, joinChunks(kind, first.MessageID, batch[i:j]))
		}
		i = j
	}
	return out
}

// joinChunks is one chunk of kind holding the text of run's chunks.
func joinChunks(kind chunkKind, messageID string, run []acp.Update) acp.Update {
	size := 0
	for _, u := range run {
		_, c := textChunk(u)
		size += len(c.Content.(acp.TextContent).Text)
	}
	var b strings.Builder
	b.Grow(size)
	for _, u := range run {
		_, c := textChunk(u)
		b.WriteString(c.Content.(acp.TextContent).Text)
	}
	chunk := acp.ContentChunk{Content: acp.Text(b.String()), MessageID: messageID}
	switch kind {
	case thoughtChunk:
		return acp.AgentThoughtChunk(chunk)
	case userChunk:
		return acp.UserMessageChunk(chunk)
	default:
		return acp.AgentMessageChunk(chunk)
	}
}
