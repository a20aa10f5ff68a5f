package bridge

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/session"
)

// commandRan shows a slash command the session answered itself: its
// reply, and in a replay the line the user typed first.
func (m *Mapper) commandRan(p session.CommandRan) []acp.Update {
	var out []acp.Update
	if m.opts.Replay && p.Line != "" {
		out = append(out, acp.UserMessageChunk{Content: acp.Text(p.Line)})
	}
	if p.Reply != "" {
		out = append(out, acp.AgentMessageChunk{Content: acp.Text(p.Reply)})
	}
	return out
}

// rewound shows a /rewind's reply live; a replay never shows it, nor
// what it took back (liveSession.start leaves those events out).
func (m *Mapper) rewound(p session.Rewound) []acp.Update {
	if m.opts.Replay || p.Reply == "" {
		return nil
	}
	return []acp.Update{acp.AgentMessageChunk{Content: acp.Text(p.Reply)}}
}

// filesRestored shows an undo as one finished edit card with a diff per
// file restored: from what the file held to what it holds again (a file
// the undo removed shows as emptied; a binary file as a note).
func filesRestored(seq int64, p session.FilesRestored) []acp.Update {
	paths := make([]string, len(p.Files))
	for i, f := range p.Files {
		paths[i] = f.Path
	}
	card := acp.ToolCall{
		ToolCallID: "undo-" + strconv.FormatInt(seq, 10),
		RawInput:   rawObject(map[string]any{"command": "/undo", "files": paths}),
		Title:      fmt.Sprintf("Restored %d %s", len(p.Files), plural(len(p.Files), "file", "files")),
		Kind:       acp.ToolKindEdit,
		Status:     acp.ToolCallStatusCompleted,
		Content:    []acp.ToolCallContent{},
	}
	for _, f := range p.Files {
		card.Locations = append(card.Locations, acp.ToolCallLocation{Path: f.Path})
		if f.Binary {
			card.Content = append(card.Content, acp.ContentItem{Content: acp.Text("Restored the binary file " + f.Path)})
			continue
		}
		after := ""
		if f.After != nil {
			after = *f.After
		}
		card.Content = append(card.Content, acp.Diff{Path: f.Path, OldText: f.Before, NewText: after})
	}
	return finishedCard(card)
}

// finishedCard shows a card the session made itself for something done
// already (an undo, a compaction) the way a tool call is shown: announced
// in progress, then completed with its content. A client that takes a
// tool call's result only from its completing tool_call_update (the AI
// SDK provider) never sees one for a tool_call created completed, and
// shows the card as running forever.
func finishedCard(card acp.ToolCall) []acp.Update {
	done := acp.ToolCallUpdate{ToolCallID: card.ToolCallID, Status: acp.ToolCallStatusCompleted, Content: card.Content}
	card.Status, card.Content = acp.ToolCallStatusInProgress, nil
	return []acp.Update{card, done}
}

// rawInput of a card the session made itself (not a model's call): an
// object saying what made it, as clients expect one.
func rawObject(v map[string]any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return data
}
