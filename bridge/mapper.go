package bridge

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/session"
)

// MapperOptions say how a session's events are shown.
type MapperOptions struct {
	// Cwd is the session's working directory: relative paths resolve
	// against it and file titles are shown relative to it.
	Cwd string
	// Terminal says the client opted into Zed's display-only terminal
	// convention (clientCapabilities._meta.terminal_output).
	Terminal bool
	// Replay also shows the user's own messages, for a session replayed
	// into an editor; live, the editor already shows what the user typed.
	Replay bool
	// Compaction says the client shows compactions
	// (clientCapabilities.session.compaction): each one as it happens,
	// its summary, how it ended; otherwise a finished card tells of it.
	Compaction bool
	// Notices says the client shows notice updates
	// (clientCapabilities.session.notices): what the session tells the
	// user goes there, live only, instead of into the conversation.
	Notices bool
	// Plans says the client shows the unstable plan operations
	// (clientCapabilities.plan): plan_update and plan_removed, each plan
	// by its id, instead of the one plan update.
	Plans bool
	// Subagents says the client shows child sessions
	// (clientCapabilities.subagents, unstable): each child agent is
	// announced with a subagent_update and its updates go under its own
	// session id; otherwise a task's card lists its child's calls.
	Subagents bool
	// ContextWindow is the model's context size in tokens, for usage
	// updates; 0 sends none.
	ContextWindow int64
	// Redactor, when set, is the one that hides secrets in every frame
	// (acp.Options.Redactor): live output holds back what could be the
	// start of a secret until the next piece shows it whole, so a secret
	// split across two pieces is hidden too.
	Redactor *secrets.Redactor
}

// Mapper turns one session's events into session/update values
// (acp.Update), in order. It is a pure function of the events it has seen: live streaming
// and replay each run their own Mapper over the same events and emit the
// same updates. It remembers the calls in flight, so a tool_call_update
// never precedes its tool_call and a call is completed at most once. A
// Mapper is used by one goroutine at a time.
type Mapper struct {
	opts  MapperOptions
	calls map[string]*callState
	// announced holds every call id shown so far, so a result for a call
	// the editor never saw (which would make it invent a card) is dropped.
	announced map[string]bool
	// cost is what the session's model requests cost so far, by currency.
	cost costTotal
	// breaks ends the agent's text before a tool call.
	breaks stepBreak
	// todoShown says the todo list was shown as a plan_update and not
	// removed since.
	todoShown bool
	// tasks holds the progress of each task call whose child has made
	// calls, until its result.
	tasks map[string]*taskProgress
	// lastUsage is the last usage shown of the session's own model, which
	// a child's cost updates.
	lastUsage *acp.UsageUpdate
	// children map the events of each child shown as a session of its own
	// (MapperOptions.Subagents), by child id, until it ends.
	children map[string]*Mapper
}

// card is the kind of card a call in flight is shown with.
type card int

const (
	genericCard card = iota
	diffCard
	terminalCard
)

// callState is what the Mapper remembers of a call in flight.
type callState struct {
	card card
	// streamed counts the output bytes already shown live.
	streamed int
	// output is what a client without the terminal convention is shown.
	output string
	// held is the end of the live output not shown yet: it could be the
	// start of a secret (see MapperOptions.Redactor).
	held string
}

// NewMapper returns a Mapper with no calls in flight.
func NewMapper(opts MapperOptions) *Mapper {
	return &Mapper{opts: opts, calls: map[string]*callState{}, announced: map[string]bool{}, tasks: map[string]*taskProgress{}, children: map[string]*Mapper{}}
}

// Map returns the updates ev produces: none, one, or (rarely) more. Every
// title in them has its control characters escaped (escapeControls), and
// the agent's text before a tool call ends with a paragraph break. An
// event or card outside its closed union is a bug, and Map panics on it;
// a server that must keep serving recovers and shows the event with
// Fallback instead.
func (m *Mapper) Map(ev session.Event) []acp.Update {
	return m.finish(ev, m.mapEvent(ev))
}

// Fallback returns what ev shows when Map panicked on it: a call with
// the generic card (its name, and its arguments as they came), the result
// of a call the editor was shown with its raw content, nothing for any
// other event. The Mapper goes on as if the call had the generic card.
func (m *Mapper) Fallback(ev session.Event) []acp.Update {
	var updates []acp.Update
	switch p := ev.Payload.(type) {
	case session.ToolCall:
		m.calls[p.CallID] = &callState{card: genericCard}
		m.announced[p.CallID] = true
		updates = []acp.Update{fallbackCall(p)}
	case session.ToolResult:
		delete(m.calls, p.CallID)
		if m.announced[p.CallID] {
			updates = []acp.Update{markStopped(rawResult(p), p.Code)}
		}
	}
	return m.finish(ev, updates)
}

// finish readies the updates of ev for the editor: the agent's text ended
// before a tool call, every title's control characters escaped.
func (m *Mapper) finish(ev session.Event, updates []acp.Update) []acp.Update {
	updates = m.breaks.separate(ev, updates)
	for i, u := range updates {
		updates[i] = escapeTitle(u)
	}
	return updates
}

// mapEvent returns the updates ev produces, titles as they came.
func (m *Mapper) mapEvent(ev session.Event) []acp.Update {
	switch p := ev.Payload.(type) {
	case session.AssistantChunk:
		if p.Text == "" {
			return nil
		}
		if p.Reasoning {
			return []acp.Update{acp.AgentThoughtChunk{Content: acp.Text(p.Text)}}
		}
		return []acp.Update{acp.AgentMessageChunk{Content: acp.Text(p.Text)}}
	case session.UserMessage:
		return m.userMessage(p)
	case session.ModelRetry:
		return m.modelRetry(p)
	case session.TurnEnded:
		if p.Reason != session.StopError || p.Error == "" {
			return nil
		}
		msg := "\n\n[Model request failed: " + p.Error + "]\n\n"
		return []acp.Update{acp.AgentMessageChunk{Content: acp.Text(msg)}}
	case session.ToolCall:
		return []acp.Update{m.toolCall(p)}
	case session.ToolStarted:
		if _, ok := m.calls[p.CallID]; !ok {
			return nil
		}
		return []acp.Update{acp.ToolCallUpdate{ToolCallID: p.CallID, Status: acp.ToolCallStatusInProgress}}
	case session.ToolOutput:
		return m.toolOutput(p)
	case session.ToolResult:
		if !m.announced[p.CallID] {
			return nil
		}
		return []acp.Update{m.withProgress(m.toolResult(p))}
	case session.PlanUpdated:
		return m.plan(p)
	case session.Usage:
		return m.usage(p)
	case session.TitleChanged:
		return []acp.Update{acp.SessionInfoUpdate{Title: p.Title, UpdatedAt: ev.Time.UTC().Format(time.RFC3339)}}
	case session.Compacted:
		return m.compacted(ev.Seq, p)
	case session.CompactionStarted:
		return m.compactionStarted(ev.Seq)
	case session.CompactionFailed:
		return m.compactionFailed(p)
	case session.CommandRan:
		return m.commandRan(p)
	case session.Rewound:
		return m.rewound(p)
	case session.Notice:
		return m.notice(p)
	case session.FilesRestored:
		return filesRestored(ev.Seq, p)
	case session.SubagentStarted:
		return m.subagentStarted(p)
	case session.SubagentEvent:
		return m.subagentEvent(ev, p)
	case session.SubagentEnded:
		return m.subagentEnded(p)
	case session.TurnStarted, session.AssistantMessage, session.ContextMessage, session.SettingChanged:
		return nil
	default:
		panic(fmt.Sprintf("bridge: unreachable variant: event payload %T", ev.Payload))
	}
}

// userMessage shows the user's message on replay, and a steered one live
// too: the client sent it while the turn ran and sees where it landed.
// Its images come with it (userChunks). A steered message's chunks say
// so in _meta ({"dsh-acp": {"steered": true}}): replayed, it is told
// from the prompt of a turn of its own.
func (m *Mapper) userMessage(p session.UserMessage) []acp.Update {
	if !m.opts.Replay && !p.Steered {
		return nil
	}
	var meta map[string]any
	if p.Steered {
		meta = map[string]any{metaKey: map[string]any{"steered": true}}
	}
	return userChunks(p.Content, meta)
}

// toolCall announces a call with its pending card.
func (m *Mapper) toolCall(p session.ToolCall) acp.ToolCall {
	u, kind := m.opts.callCard(p)
	m.calls[p.CallID] = &callState{card: kind}
	m.announced[p.CallID] = true
	return u
}

// callCard is the card a call is shown with, pending, from its view, and
// the kind of card that is; it carries the tool's name (the registry's:
// read, bash, mcp__server__tool), which clients such as Zed prefer to
// anything in _meta. It is a function of the options alone: the
// permission prompt shows a call with it too.
func (o MapperOptions) callCard(p session.ToolCall) (acp.ToolCall, card) {
	u, kind := o.viewCard(p)
	u.Name = p.Name
	return u, kind
}

// viewCard is callCard without the name.
func (o MapperOptions) viewCard(p session.ToolCall) (acp.ToolCall, card) {
	switch v := p.View.(type) {
	case nil:
		return fallbackCall(p), genericCard
	case presentation.GenericCallView:
		path := ""
		if len(v.Locations) > 0 {
			path = absolute(v.Locations[0].Path, o.Cwd)
		}
		u := acp.ToolCall{
			ToolCallID: p.CallID, Status: acp.ToolCallStatusPending,
			Title:     displayTitle(v.Title, path, o.Cwd),
			Kind:      acp.ToolKind(v.Kind.OrOther()),
			RawInput:  rawInput(p.Arguments),
			Locations: o.locations(v.Locations),
		}
		if items := contentItems(v.Content); len(items) > 0 {
			u.Content = items
		}
		return u, genericCard
	case presentation.DiffCallView:
		path := ""
		if len(v.Locations) > 0 {
			path = absolute(v.Locations[0].Path, o.Cwd)
		} else if len(v.Diffs) > 0 {
			path = absolute(v.Diffs[0].Path, o.Cwd)
		}
		u := acp.ToolCall{
			ToolCallID: p.CallID, Status: acp.ToolCallStatusPending,
			Title:     displayTitle(v.Title, path, o.Cwd),
			Kind:      acp.ToolKindEdit,
			RawInput:  rawInput(p.Arguments),
			Locations: o.locations(v.Locations),
		}
		if items := o.diffItems(v.Diffs); len(items) > 0 {
			u.Content = items
		}
		return u, diffCard
	case presentation.TerminalCallView:
		u := acp.ToolCall{
			ToolCallID: p.CallID, Status: acp.ToolCallStatusPending,
			Title: v.Title, Kind: acp.ToolKindExecute, RawInput: rawInput(p.Arguments),
		}
		if v.Description != "" {
			u.Content = append(u.Content, textItem(v.Description))
		}
		if o.Terminal {
			u.Content = append(u.Content, acp.Terminal{TerminalID: p.CallID})
			u.Meta = &acp.ToolCallMeta{TerminalInfo: &acp.TerminalInfo{TerminalID: p.CallID, Cwd: o.terminalCwd(v.Cwd)}}
		}
		return u, terminalCard
	default:
		panic(fmt.Sprintf("bridge: unreachable variant: call card %T", p.View))
	}
}

// fallbackCall is the card of a call whose tool has no presenter: its
// name, and its arguments as they came.
func fallbackCall(p session.ToolCall) acp.ToolCall {
	return acp.ToolCall{
		ToolCallID: p.CallID, Status: acp.ToolCallStatusPending,
		Title: p.Name, Kind: acp.ToolKindOther, RawInput: rawInput(p.Arguments),
	}
}

// rawInput is a call's arguments as the editor is shown them, whatever its
// card: always a JSON object, since editors read members of it
// (agent-shell reads rawInput.command and fails on anything else).
//
//   - arguments that are a JSON object: that object (canonical text);
//   - no arguments (empty or blank): {};
//   - anything else — malformed JSON, or JSON that is not an object:
//     {"_raw": "<the text as sent>"}, an extension member (ACP reserves
//     names starting with "_" for those), so the editor still shows what
//     the model sent.
func rawInput(args string) json.RawMessage {
	if strings.TrimSpace(args) == "" {
		return json.RawMessage("{}")
	}
	if canonical, err := jsonvalue.Canonicalize(args); err == nil && strings.HasPrefix(canonical, "{") {
		return json.RawMessage(canonical)
	}
	return json.RawMessage(`{"_raw":` + jsonvalue.Quote(args) + `}`)
}

// terminalCwd is the directory a terminal card shows: the view's when
// absolute, resolved against the session's when relative, else the
// session's own.
func (o MapperOptions) terminalCwd(cwd string) string {
	switch {
	case cwd == "":
		return o.Cwd
	case filepath.IsAbs(cwd) || o.Cwd == "":
		return cwd
	default:
		return filepath.Join(o.Cwd, cwd)
	}
}

// locations maps file locations with absolute paths and 0-based lines
// (the editor's rows).
func (o MapperOptions) locations(locs []presentation.FileLocation) []acp.ToolCallLocation {
	if len(locs) == 0 {
		return nil
	}
	out := make([]acp.ToolCallLocation, len(locs))
	for i, l := range locs {
		out[i] = acp.ToolCallLocation{Path: absolute(l.Path, o.Cwd)}
		if l.Line > 0 {
			row := l.Line - 1
			out[i].Line = &row
		}
	}
	return out
}

func (o MapperOptions) diffItems(diffs []presentation.FileDiff) []acp.ToolCallContent {
	items := make([]acp.ToolCallContent, 0, len(diffs))
	for _, d := range diffs {
		d = d.Clone()
		items = append(items, acp.Diff{Path: absolute(d.Path, o.Cwd), OldText: d.OldText, NewText: d.NewText})
	}
	return items
}

// toolOutput shows a running command's output: appended to the terminal
// when the client keeps one, otherwise as the call's whole output so far.
func (m *Mapper) toolOutput(p session.ToolOutput) []acp.Update {
	state, ok := m.calls[p.CallID]
	if !ok || state.card != terminalCard || p.Output == "" {
		return nil
	}
	state.streamed += len(p.Output)
	shown := state.held + p.Output
	n := len(shown) - m.opts.Redactor.Pending(shown)
	shown, state.held = shown[:n], shown[n:]
	if shown == "" {
		return nil
	}
	if m.opts.Terminal {
		return []acp.Update{acp.ToolCallUpdate{
			ToolCallID: p.CallID,
			Meta:       &acp.ToolCallUpdateMeta{TerminalOutput: &acp.TerminalOutput{TerminalID: p.CallID, Data: shown}},
		}}
	}
	state.output = keepTail(state.output+shown, liveOutputTail)
	return []acp.Update{acp.ToolCallUpdate{
		ToolCallID: p.CallID,
		Content:    []acp.ToolCallContent{textItem(presentation.Fence("console", state.output))},
	}}
}

// liveOutputTail is how much of a running command's output a client
// without the terminal convention is re-sent with each update.
const liveOutputTail = 16 << 10

// keepTail returns s, or its last max bytes (from a line start when one is
// near) after a note that earlier output is not shown.
func keepTail(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const note = "… (earlier output not shown)\n"
	tail := s[len(s)-max:]
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i < 256 {
		tail = tail[i+1:]
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return note + tail
}
