package acp

// CompactionStatus is where a compaction of the context stands.
type CompactionStatus string

// The compaction statuses of schema 1.25.
const (
	CompactionInProgress CompactionStatus = "in_progress"
	CompactionCompleted  CompactionStatus = "completed"
	CompactionFailed     CompactionStatus = "failed"
	CompactionCancelled  CompactionStatus = "cancelled"
)

// CompactionUpdate creates or updates the compaction CompactionID (the
// first one fixes its place in the timeline). Send it only to a client
// that advertised clientCapabilities.session.compaction.
type CompactionUpdate struct {
	CompactionID string
	Status       CompactionStatus
	// Summary, when set, replaces the compaction's whole summary; nil
	// leaves it as the summary chunks made it.
	Summary []ContentBlock
	// Error says why a failed compaction failed.
	Error string
	Meta  map[string]any
}

type compactionUpdateWire struct {
	SessionUpdate string           `json:"sessionUpdate"`
	CompactionID  string           `json:"compactionId"`
	Status        CompactionStatus `json:"status"`
	Summary       []any            `json:"summary,omitempty"`
	Error         string           `json:"error,omitempty"`
	Meta          map[string]any   `json:"_meta,omitempty"`
}

func (u CompactionUpdate) wire() (any, error) {
	var summary []any
	for _, b := range u.Summary {
		block, err := contentWire(b)
		if err != nil {
			return nil, err
		}
		summary = append(summary, block)
	}
	return compactionUpdateWire{"compaction_update", u.CompactionID, u.Status, summary, u.Error, u.Meta}, nil
}

// MarshalJSON encodes the update as a session/update.
func (u CompactionUpdate) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }

// CompactionSummaryChunk appends Content to the summary of the compaction
// CompactionID. Send it only to a client that advertised
// clientCapabilities.session.compaction.
type CompactionSummaryChunk struct {
	CompactionID string
	Content      ContentBlock
	Meta         map[string]any
}

type compactionChunkWire struct {
	SessionUpdate string         `json:"sessionUpdate"`
	CompactionID  string         `json:"compactionId"`
	Content       any            `json:"content"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

func (u CompactionSummaryChunk) wire() (any, error) {
	block, err := contentWire(u.Content)
	if err != nil {
		return nil, err
	}
	return compactionChunkWire{"compaction_summary_chunk", u.CompactionID, block, u.Meta}, nil
}

// MarshalJSON encodes the chunk as a session/update.
func (u CompactionSummaryChunk) MarshalJSON() ([]byte, error) { return marshalUpdate(u) }
