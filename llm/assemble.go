package llm

import (
	"slices"
	"strconv"
	"strings"
)

// assembler builds the final assistant message from stream events.
type assembler struct {
	text      strings.Builder
	reasoning strings.Builder
	calls     map[int]*partialCall
	order     []int // indexes of calls, sorted once the step finished
	finish    FinishReason
	usage     Usage
}

type partialCall struct {
	id, name string
	args     strings.Builder
}

// addToolCallDelta merges one fragment into the call at d.Index. IDs are
// never split, so a later ID replaces an earlier one; a name repeated on
// every fragment (as some servers do) is kept once, a split name is joined.
func (a *assembler) addToolCallDelta(d ToolCallDelta) {
	if a.calls == nil {
		a.calls = make(map[int]*partialCall)
	}
	pc, ok := a.calls[d.Index]
	if !ok {
		pc = &partialCall{}
		a.calls[d.Index] = pc
		a.order = append(a.order, d.Index)
		slices.Sort(a.order)
	}
	if d.ID != "" {
		pc.id = d.ID
	}
	if d.Name != "" && d.Name != pc.name {
		pc.name += d.Name
	}
	pc.args.WriteString(d.Arguments)
}

// toolCalls returns the calls in index order; a call the server sent
// without an id gets "call_<index>".
func (a *assembler) toolCalls() []ToolCall {
	if len(a.order) == 0 {
		return nil
	}
	out := make([]ToolCall, 0, len(a.order))
	for _, idx := range a.order {
		pc := a.calls[idx]
		id := pc.id
		if id == "" {
			id = "call_" + strconv.Itoa(idx)
		}
		out = append(out, ToolCall{ID: id, Name: pc.name, Arguments: pc.args.String()})
	}
	return out
}

func (a *assembler) response() Response {
	return Response{
		Message: Message{
			Role:      RoleAssistant,
			Content:   a.text.String(),
			Reasoning: a.reasoning.String(),
			ToolCalls: a.toolCalls(),
		},
		FinishReason: a.finish,
		Usage:        a.usage,
	}
}
