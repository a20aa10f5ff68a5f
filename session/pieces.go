package session

import "strings"

// extendRun keeps track of the run of streamed pieces p is about to join:
// when p does not continue the open run, that run is merged into one
// event, and a new one opens if p is a piece.
func (l *Log) extendRun(p Payload) {
	if l.run >= 0 && !sameRun(l.events[l.run].Payload, p) {
		l.mergeRun()
	}
	if l.run < 0 && isPiece(p) {
		l.run = len(l.events)
	}
}

// mergeRun replaces the open run's events by one holding their text.
func (l *Log) mergeRun() {
	pieces := l.events[l.run:]
	if len(pieces) > 1 {
		l.events[l.run] = joinRun(pieces)
		clear(pieces[1:]) // let the pieces go
		l.events = l.events[:l.run+1]
	}
	l.run = -1
}

// joinRun returns one event holding the whole text of a run of pieces,
// with the Seq, Time and Turn of its first piece.
func joinRun(pieces []Event) Event {
	if len(pieces) == 1 {
		return pieces[0]
	}
	var b strings.Builder
	n := 0
	for _, ev := range pieces {
		n += len(pieceText(ev.Payload))
	}
	b.Grow(n)
	for _, ev := range pieces {
		b.WriteString(pieceText(ev.Payload))
	}
	joined := pieces[0]
	joined.Payload = withPieceText(joined.Payload, b.String())
	return joined
}

// mergeRuns returns events with every run of streamed pieces joined into
// one event, the way a Log keeps them once each run has ended. events is
// reused for the result.
func mergeRuns(events []Event) []Event {
	out := events[:0]
	for i := 0; i < len(events); {
		j := i + 1
		if isPiece(events[i].Payload) {
			for j < len(events) && sameRun(events[i].Payload, events[j].Payload) {
				j++
			}
		}
		out = append(out, joinRun(events[i:j]))
		i = j
	}
	clear(events[len(out):])
	return out
}

// isPiece reports whether p is a streamed piece that runs merge.
func isPiece(p Payload) bool {
	switch p := p.(type) {
	case AssistantChunk, ToolOutput:
		return true
	case SubagentEvent:
		return isPiece(p.Payload)
	}
	return false
}

// sameRun reports whether next continues the run that first opened.
func sameRun(first, next Payload) bool {
	switch f := first.(type) {
	case AssistantChunk:
		n, ok := next.(AssistantChunk)
		return ok && n.Reasoning == f.Reasoning
	case ToolOutput:
		n, ok := next.(ToolOutput)
		return ok && n.CallID == f.CallID
	case SubagentEvent:
		n, ok := next.(SubagentEvent)
		return ok && n.ID == f.ID && isPiece(f.Payload) && sameRun(f.Payload, n.Payload)
	}
	return false
}

func pieceText(p Payload) string {
	switch p := p.(type) {
	case AssistantChunk:
		return p.Text
	case ToolOutput:
		return p.Output
	case SubagentEvent:
		return pieceText(p.Payload)
	}
	return ""
}

func withPieceText(p Payload, text string) Payload {
	switch p := p.(type) {
	case AssistantChunk:
		p.Text = text
		return p
	case ToolOutput:
		p.Output = text
		return p
	case SubagentEvent:
		p.Payload = withPieceText(p.Payload, text)
		return p
	}
	return p
}
