package bridge

import (
	"encoding/json"
	"fmt"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// toolResult completes a call with its result card, marked stopped when
// the turn's cancel stopped it (markStopped).
func (m *Mapper) toolResult(p session.ToolResult) acp.ToolCallUpdate {
	state := m.calls[p.CallID]
	u := m.resultCard(p)
	if _, terminal := p.View.(presentation.TerminalResultView); !terminal && state != nil && state.card == terminalCard && m.opts.Terminal {
		u = endTerminal(u)
	}
	return markStopped(u, p.Code)
}

// endTerminal gives u, the final update of a terminal card under the
// convention whose result is not a command's (one that failed to start,
// or that a cancel kept from starting), a terminal_exit with neither exit
// code nor signal, so that the client's terminal ends with the call.
func endTerminal(u acp.ToolCallUpdate) acp.ToolCallUpdate {
	meta := acp.ToolCallUpdateMeta{}
	if u.Meta != nil {
		meta = *u.Meta
	}
	meta.TerminalExit = &acp.TerminalExit{TerminalID: u.ToolCallID}
	u.Meta = &meta
	return u
}

// resultCard is a call's final update: its result card. A result for a
// call the Mapper does not know (a late or repeated result) shows its raw
// content. The call is failed when its result is a tool error or its card
// says it failed (resultStatus), whatever the card is shown as.
func (m *Mapper) resultCard(p session.ToolResult) acp.ToolCallUpdate {
	status := resultStatus(p)
	raw := rawResult(p)
	state, ok := m.calls[p.CallID]
	if !ok {
		return raw
	}
	delete(m.calls, p.CallID)
	switch v := p.View.(type) {
	case nil:
		return raw
	case presentation.GenericResultView:
		u := raw
		if len(v.Content) > 0 {
			u.Content = contentItems(v.Content)
		}
		if v.Summary {
			u.RawOutput = rawOutput(p.Content)
		}
		u.Title = v.Title
		return u
	case presentation.TerminalResultView:
		if state.card != terminalCard {
			return raw // the orphan guard: no terminal to complete
		}
		return m.terminalResult(p.CallID, status, state, v)
	case presentation.DiffResultView:
		u := acp.ToolCallUpdate{ToolCallID: p.CallID, Status: status, Locations: m.opts.locations(v.Locations)}
		if items := m.opts.diffItems(v.Diffs); len(items) > 0 {
			u.Content = items
			if v.Notes != "" {
				u.Content = append(u.Content, textItem(v.Notes))
			}
		}
		if v.Title != "" && len(v.Diffs) > 0 {
			u.Title = displayTitle(v.Title, absolute(v.Diffs[0].Path, m.opts.Cwd), m.opts.Cwd)
		} else {
			u.Title = v.Title
		}
		return u
	case presentation.ReadResultView:
		u := raw
		u.Content = []acp.ToolCallContent{textItem(codeFence(v.Content, v.Lang))}
		u.Title = displayTitle(v.Title, absolute(v.Path, m.opts.Cwd), m.opts.Cwd)
		return u
	case presentation.SearchMatchesView:
		u := raw
		u.Content = []acp.ToolCallContent{textItem(searchMatchesText(v))}
		u.Title = v.Title
		if f, ok := singleMatch(v); ok {
			// One place found (a definition): the editor follows it.
			u.Locations = m.opts.locations([]presentation.FileLocation{{Path: f.Path, Line: f.Matches[0].LineNumber}})
		}
		return u
	case presentation.SearchPathsView:
		u := raw
		u.Content = []acp.ToolCallContent{textItem(searchPathsText(v))}
		u.Title = v.Title
		return u
	default:
		panic(fmt.Sprintf("bridge: unreachable variant: result card %T", p.View))
	}
}

// rawResult completes a call with the content its result gave the model;
// a call a cancel stopped says so in the user's words instead (the model
// reads the pipeline's "tool call aborted").
func rawResult(p session.ToolResult) acp.ToolCallUpdate {
	content := contentItems(p.Content)
	if text, ok := abortedText(p.Code); ok {
		content = []acp.ToolCallContent{textItem(text)}
	}
	return acp.ToolCallUpdate{ToolCallID: p.CallID, Status: resultStatus(p), Content: content}
}

// rawOutput is a call's raw output: what the model read, as one JSON
// string.
func rawOutput(content []presentation.ContentBlock) json.RawMessage {
	return json.RawMessage(jsonvalue.Quote(presentation.JoinText(content)))
}

// abortedText is what the user reads of a call the turn's cancel stopped.
func abortedText(code string) (string, bool) {
	switch code {
	case registry.CodeAbortedBeforeDispatch:
		return "Not run: the turn was cancelled before it started.", true
	case registry.CodeAborted:
		return "Stopped: the turn was cancelled while it ran.", true
	}
	return "", false
}

// markStopped marks u, the final update of a call whose result has the
// error code code, with _meta "dsh-acp": {"stopped": true} when the
// turn's cancel stopped the call: an abort code, whether the pipeline
// gave it or the tool (bash, for the command it stopped). The status
// stays as it is (failed).
func markStopped(u acp.ToolCallUpdate, code string) acp.ToolCallUpdate {
	if code != registry.CodeAborted && code != registry.CodeAbortedBeforeDispatch {
		return u
	}
	meta := acp.ToolCallUpdateMeta{}
	if u.Meta != nil {
		meta = *u.Meta
	}
	meta.Own = &acp.OwnUpdateMeta{Stopped: true}
	u.Meta = &meta
	return u
}

// resultStatus is a finished call's status: failed for a tool error, for
// a command that failed (a non-zero exit, a signal, a timeout: see
// presentation.CommandEnd.Failed) and for a card its tool marks failed;
// completed otherwise.
func resultStatus(p session.ToolResult) acp.ToolCallStatus {
	failed := p.IsError
	switch v := p.View.(type) {
	case presentation.TerminalResultView:
		failed = failed || v.End().Failed()
	case presentation.GenericResultView:
		failed = failed || v.Failed
	}
	if failed {
		return acp.ToolCallStatusFailed
	}
	return acp.ToolCallStatusCompleted
}

// terminalResult completes a terminal card: with the convention, the
// output not yet streamed and the exit; without it, the fenced output
// followed by how a failed command ended.
func (m *Mapper) terminalResult(id string, status acp.ToolCallStatus, state *callState, v presentation.TerminalResultView) acp.ToolCallUpdate {
	u := acp.ToolCallUpdate{ToolCallID: id, Status: status, Title: v.Title}
	if !m.opts.Terminal {
		u.Content = []acp.ToolCallContent{textItem(presentation.ConsoleText(v.Output, v.End()))}
		return u
	}
	data := v.Output
	if state.streamed > 0 {
		data = state.held // the rest was shown as it arrived
	}
	meta := &acp.ToolCallUpdateMeta{TerminalOutput: &acp.TerminalOutput{TerminalID: id, Data: data}}
	switch {
	case v.Signal != "":
		meta.TerminalExit = &acp.TerminalExit{TerminalID: id, Signal: v.Signal}
	case v.ExitCode != nil:
		code := *v.ExitCode
		meta.TerminalExit = &acp.TerminalExit{TerminalID: id, ExitCode: &code}
	}
	u.Meta = meta
	return u
}

// singleMatch returns the file of a search that found exactly one place.
func singleMatch(v presentation.SearchMatchesView) (presentation.SearchFile, bool) {
	if len(v.Files) != 1 || len(v.Files[0].Matches) != 1 || v.Truncated {
		return presentation.SearchFile{}, false
	}
	return v.Files[0], true
}
