package session

import "time"

// Event is one entry of a session's log.
type Event struct {
	// Seq numbers the session's events from 1, in append order. An event
	// the log keeps for a merged run of pieces has its first piece's Seq,
	// so the Seqs of kept events may skip numbers.
	Seq int64
	// Time is when the event was appended.
	Time time.Time
	// Turn is the number of the turn the event belongs to (from 1), or 0
	// for events outside any turn.
	Turn int
	// Payload is what happened.
	Payload Payload
}

// Payload is the content of an event. The union is closed: the types in
// payload.go are its only members, so a consumer's type switch can list
// every case and fail loudly in its default branch.
type Payload interface {
	// Kind is the payload's stable name, such as "tool/call".
	Kind() string
	isPayload()
}
