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
		var b strings.Builder
		n := 0
		for _, ev := range pieces {
			n += len(pieceText(ev.Payload))
		}
		b.Grow(n)
		for _, ev := range pieces {
			b.WriteString(pieceText(ev.Payload))
		}
		l.events[l.run].Payload = withPieceText(pieces[0].Payload, b.String())
		clear(pieces[1:]) // let the pieces go
		l.events = l.events[:l.run+1]
	}
	l.run = -1
}

// isPiece reports whether p is a streamed piece that runs merge.
func isPiece(p Payload) bool {
	switch p.(type) {
	case AssistantChunk, ToolOutput:
		return true
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
	}
	return false
}

func pieceText(p Payload) string {
	switch p := p.(type) {
	case AssistantChunk:
		return p.Text
	case ToolOutput:
		return p.Output
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
	}
	return p
}
