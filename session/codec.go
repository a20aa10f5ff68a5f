package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
)

// ErrUnknownKind is wrapped by DecodeEvent's error for a line whose kind
// this build does not know, such as one a newer build wrote. A loader
// skips such a line with a warning.
var ErrUnknownKind = errors.New("unknown event kind")

// The on-disk form of an event is one JSON object per line:
//
//	{"seq":1,"time":"2026-11-29T12:00:00.000000001Z","turn":1,"kind":"tool/call","data":{…}}
//
// Every name in it is spelled out in the wire structs below, never taken
// from a Go field by reflection, so renaming a field in this package or
// in presentation does not change the form and old logs keep loading.

// Most wire structs serve both ways. Those holding content or a card
// hold it as any, filled by encodeContent or encodeCallView and the like,
// and each has an "In" form for decoding that shadows those fields with
// their decoded types (encoding/json takes the shallower of two fields of
// one name). Encoding never goes through json.RawMessage or a
// MarshalJSON method, whose output encoding/json would scan once more.

// eventWire is the envelope of an encoded event; Data is a payload's wire
// struct.
type eventWire struct {
	Seq  int64     `json:"seq"`
	Time time.Time `json:"time"`
	Turn int       `json:"turn"`
	Kind string    `json:"kind"`
	Data any       `json:"data"`
}

type eventIn struct {
	eventWire
	Data json.RawMessage `json:"data"`
}

type emptyWire struct{}

type userMessageWire struct {
	Content any  `json:"content,omitempty"`
	Steered bool `json:"steered,omitempty"`
}

type userMessageIn struct {
	Content contentWire `json:"content,omitempty"`
	Steered bool        `json:"steered,omitempty"`
}

type assistantChunkWire struct {
	Text      string `json:"text,omitempty"`
	Reasoning bool   `json:"reasoning,omitempty"`
}

type toolCallRefWire struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

type assistantMessageWire struct {
	Text      string            `json:"text,omitempty"`
	Reasoning string            `json:"reasoning,omitempty"`
	ToolCalls []toolCallRefWire `json:"tool_calls,omitempty"`
}

type toolCallWire struct {
	CallID    string `json:"call_id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	View      any    `json:"view,omitempty"`
}

type toolCallIn struct {
	toolCallWire
	View json.RawMessage `json:"view,omitempty"`
}

type toolStartedWire struct {
	CallID string `json:"call_id,omitempty"`
}

type toolOutputWire struct {
	CallID string `json:"call_id,omitempty"`
	Output string `json:"output,omitempty"`
}

type toolResultWire struct {
	CallID  string `json:"call_id,omitempty"`
	CallSeq int64  `json:"call_seq,omitempty"`
	Content any    `json:"content,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
	Code    string `json:"code,omitempty"`
	Meta    string `json:"meta,omitempty"`
	View    any    `json:"view,omitempty"`
}

type toolResultIn struct {
	toolResultWire
	Content contentWire     `json:"content,omitempty"`
	View    json.RawMessage `json:"view,omitempty"`
}

type contextMessageWire struct {
	Content      any    `json:"content,omitempty"`
	SourceKind   string `json:"source_kind,omitempty"`
	SourcePlugin string `json:"source_plugin,omitempty"`
}

type contextMessageIn struct {
	contextMessageWire
	Content contentWire `json:"content,omitempty"`
}

type planEntryWire struct {
	Content  string `json:"content,omitempty"`
	Status   string `json:"status,omitempty"`
	Priority string `json:"priority,omitempty"`
}

type planWire struct {
	Entries  []planEntryWire `json:"entries,omitempty"`
	Markdown string          `json:"markdown,omitempty"`
}

type modelRetryWire struct {
	Attempt     int    `json:"attempt,omitempty"`
	MaxAttempts int    `json:"max_attempts,omitempty"`
	WaitNanos   int64  `json:"wait_ns,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

type usageWire struct {
	PromptTokens       int64   `json:"prompt_tokens,omitempty"`
	CompletionTokens   int64   `json:"completion_tokens,omitempty"`
	TotalTokens        int64   `json:"total_tokens,omitempty"`
	CachedPromptTokens int64   `json:"cached_prompt_tokens,omitempty"`
	Model              string  `json:"model,omitempty"`
	ContextWindow      int64   `json:"context_window,omitempty"`
	Cost               float64 `json:"cost,omitempty"`
	Currency           string  `json:"currency,omitempty"`
}

type titleWire struct {
	Title string `json:"title,omitempty"`
}

type settingWire struct {
	Setting string `json:"setting,omitempty"`
	Value   string `json:"value,omitempty"`
}

type compactedWire struct {
	Summary string `json:"summary,omitempty"`
	Through int64  `json:"through,omitempty"`
	Turns   int    `json:"turns,omitempty"`
	Started int64  `json:"started,omitempty"`
}

type compactionFailedWire struct {
	Started   int64  `json:"started,omitempty"`
	Error     string `json:"error,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"`
}

type rewoundWire struct {
	From  int64  `json:"from"`
	Reply string `json:"reply,omitempty"`
}

type noticeWire struct {
	Text string `json:"text,omitempty"`
}

type commandRanWire struct {
	Line  string `json:"line,omitempty"`
	Reply string `json:"reply,omitempty"`
}

type fileRestoredWire struct {
	Path   string  `json:"path"`
	Before *string `json:"before"`
	After  *string `json:"after"`
	Binary bool    `json:"binary,omitempty"`
}

type filesRestoredWire struct {
	Files []fileRestoredWire `json:"files"`
}

type subagentStartedWire struct {
	ID          string `json:"id"`
	CallID      string `json:"call_id"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
}

// subagentEventWire holds a child's event: its kind and data as an
// event line of their own would.
type subagentEventWire struct {
	ID     string `json:"id"`
	CallID string `json:"call_id"`
	Kind   string `json:"kind"`
	Data   any    `json:"data"`
}

type subagentEventIn struct {
	subagentEventWire
	Data json.RawMessage `json:"data"`
}

type subagentEndedWire struct {
	ID     string `json:"id"`
	CallID string `json:"call_id"`
	Reason string `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"`
}

type turnEndedWire struct {
	Reason string `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"`
}

// EncodeEvent returns ev as one line of JSON, without a newline. It fails
// for a payload or card type the codec does not know, and for content it
// cannot encode (an UnknownBlock holding invalid JSON).
func EncodeEvent(ev Event) ([]byte, error) {
	data, err := encodePayload(ev.Payload)
	if err != nil {
		return nil, fmt.Errorf("encode event %d: %w", ev.Seq, err)
	}
	line, err := json.Marshal(eventWire{Seq: ev.Seq, Time: ev.Time, Turn: ev.Turn, Kind: ev.Payload.Kind(), Data: data})
	if err != nil {
		return nil, fmt.Errorf("encode event %d: %w", ev.Seq, err)
	}
	return line, nil
}

// DecodeEvent reads one line EncodeEvent wrote (a trailing newline is
// allowed). A line of a kind this build does not know fails with an
// error wrapping ErrUnknownKind. A card this build does not know is
// dropped (the event keeps a nil view, which editors show as a generic
// card) rather than failing the event.
func DecodeEvent(line []byte) (Event, error) {
	return decodeEvent(line, nil)
}

// decodeEvent is DecodeEvent reporting each unknown card it drops to
// dropped (when not nil).
func decodeEvent(line []byte, dropped func(card string)) (Event, error) {
	var w eventIn
	if err := json.Unmarshal(line, &w); err != nil {
		return Event{}, fmt.Errorf("decode event: %w", err)
	}
	if len(bytes.TrimSpace(w.Data)) == 0 {
		w.Data = json.RawMessage("{}")
	}
	p, err := decodePayload(w.Kind, w.Data, dropped)
	if err != nil {
		return Event{}, fmt.Errorf("decode event %d: %w", w.Seq, err)
	}
	return Event{Seq: w.Seq, Time: w.Time, Turn: w.Turn, Payload: p}, nil
}

// encodePayload returns the wire struct of p's data object.
func encodePayload(p Payload) (any, error) {
	var w any
	switch p := p.(type) {
	case TurnStarted:
		w = emptyWire{}
	case UserMessage:
		w = userMessageWire{Content: encodeContent(p.Content), Steered: p.Steered}
	case AssistantChunk:
		w = assistantChunkWire{Text: p.Text, Reasoning: p.Reasoning}
	case AssistantMessage:
		w = assistantMessageWire{Text: p.Text, Reasoning: p.Reasoning, ToolCalls: toolCallRefsWire(p.ToolCalls)}
	case ToolCall:
		view, err := encodeCallView(p.View)
		if err != nil {
			return nil, err
		}
		w = toolCallWire{CallID: p.CallID, Name: p.Name, Arguments: p.Arguments, View: view}
	case ToolStarted:
		w = toolStartedWire{CallID: p.CallID}
	case ToolOutput:
		w = toolOutputWire{CallID: p.CallID, Output: p.Output}
	case ToolResult:
		view, err := encodeResultView(p.View)
		if err != nil {
			return nil, err
		}
		w = toolResultWire{CallID: p.CallID, CallSeq: p.CallSeq, Content: encodeContent(p.Content), IsError: p.IsError, Code: p.Code, Meta: p.Meta, View: view}
	case ContextMessage:
		w = contextMessageWire{Content: encodeContent(p.Message.Content), SourceKind: p.Message.Source.Kind, SourcePlugin: p.Message.Source.Plugin}
	case PlanUpdated:
		w = planWire{Entries: planEntriesWire(p.Entries), Markdown: p.Markdown}
	case ModelRetry:
		w = modelRetryWire{Attempt: p.Attempt, MaxAttempts: p.MaxAttempts, WaitNanos: int64(p.Wait), Reason: p.Reason}
	case Usage:
		w = usageWire(p)
	case TitleChanged:
		w = titleWire{Title: p.Title}
	case SettingChanged:
		w = settingWire{Setting: p.Setting, Value: p.Value}
	case Compacted:
		w = compactedWire(p)
	case CompactionStarted:
		w = struct{}{}
	case CompactionFailed:
		w = compactionFailedWire(p)
	case CommandRan:
		w = commandRanWire(p)
	case Notice:
		w = noticeWire(p)
	case Rewound:
		w = rewoundWire(p)
	case FilesRestored:
		files := make([]fileRestoredWire, len(p.Files))
		for i, f := range p.Files {
			files[i] = fileRestoredWire(f)
		}
		w = filesRestoredWire{Files: files}
	case TurnEnded:
		w = turnEndedWire{Reason: string(p.Reason), Error: p.Error}
	case SubagentStarted:
		w = subagentStartedWire(p)
	case SubagentEvent:
		if p.Payload == nil {
			return nil, fmt.Errorf("subagent %s event has no payload", p.ID)
		}
		inner, err := encodePayload(p.Payload)
		if err != nil {
			return nil, err
		}
		w = subagentEventWire{ID: p.ID, CallID: p.CallID, Kind: p.Payload.Kind(), Data: inner}
	case SubagentEnded:
		w = subagentEndedWire{ID: p.ID, CallID: p.CallID, Reason: string(p.Reason), Error: p.Error}
	default:
		return nil, fmt.Errorf("payload type %T has no codec", p)
	}
	return w, nil
}

// decodePayload decodes the data object of an event of the given kind.
func decodePayload(kind string, data json.RawMessage, dropped func(string)) (Payload, error) {
	switch kind {
	case TurnStarted{}.Kind():
		return TurnStarted{}, nil
	case UserMessage{}.Kind():
		w, err := unmarshalData[userMessageIn](kind, data)
		return UserMessage{Content: w.Content, Steered: w.Steered}, err
	case AssistantChunk{}.Kind():
		w, err := unmarshalData[assistantChunkWire](kind, data)
		return AssistantChunk{Text: w.Text, Reasoning: w.Reasoning}, err
	case AssistantMessage{}.Kind():
		w, err := unmarshalData[assistantMessageWire](kind, data)
		return AssistantMessage{Text: w.Text, Reasoning: w.Reasoning, ToolCalls: toolCallRefs(w.ToolCalls)}, err
	case ToolCall{}.Kind():
		w, err := unmarshalData[toolCallIn](kind, data)
		if err != nil {
			return nil, err
		}
		view, err := decodeCallView(w.View, dropped)
		return ToolCall{CallID: w.CallID, Name: w.Name, Arguments: w.Arguments, View: view}, err
	case ToolStarted{}.Kind():
		w, err := unmarshalData[toolStartedWire](kind, data)
		return ToolStarted{CallID: w.CallID}, err
	case ToolOutput{}.Kind():
		w, err := unmarshalData[toolOutputWire](kind, data)
		return ToolOutput{CallID: w.CallID, Output: w.Output}, err
	case ToolResult{}.Kind():
		w, err := unmarshalData[toolResultIn](kind, data)
		if err != nil {
			return nil, err
		}
		view, err := decodeResultView(w.View, dropped)
		return ToolResult{CallID: w.CallID, CallSeq: w.CallSeq, Content: w.Content, IsError: w.IsError, Code: w.Code, Meta: w.Meta, View: view}, err
	case ContextMessage{}.Kind():
		w, err := unmarshalData[contextMessageIn](kind, data)
		return ContextMessage{Message: registry.ContextMessage{
			Content: w.Content,
			Source:  registry.MessageSource{Kind: w.SourceKind, Plugin: w.SourcePlugin},
		}}, err
	case PlanUpdated{}.Kind():
		w, err := unmarshalData[planWire](kind, data)
		return PlanUpdated{Entries: planEntries(w.Entries), Markdown: w.Markdown}, err
	case ModelRetry{}.Kind():
		w, err := unmarshalData[modelRetryWire](kind, data)
		return ModelRetry{Attempt: w.Attempt, MaxAttempts: w.MaxAttempts, Wait: time.Duration(w.WaitNanos), Reason: w.Reason}, err
	case Usage{}.Kind():
		w, err := unmarshalData[usageWire](kind, data)
		return Usage(w), err
	case TitleChanged{}.Kind():
		w, err := unmarshalData[titleWire](kind, data)
		return TitleChanged{Title: w.Title}, err
	case SettingChanged{}.Kind():
		w, err := unmarshalData[settingWire](kind, data)
		return SettingChanged{Setting: w.Setting, Value: w.Value}, err
	case Compacted{}.Kind():
		w, err := unmarshalData[compactedWire](kind, data)
		return Compacted(w), err
	case CompactionStarted{}.Kind():
		return CompactionStarted{}, nil
	case CompactionFailed{}.Kind():
		w, err := unmarshalData[compactionFailedWire](kind, data)
		return CompactionFailed(w), err
	case Notice{}.Kind():
		w, err := unmarshalData[noticeWire](kind, data)
		return Notice(w), err
	case CommandRan{}.Kind():
		w, err := unmarshalData[commandRanWire](kind, data)
		return CommandRan(w), err
	case Rewound{}.Kind():
		w, err := unmarshalData[rewoundWire](kind, data)
		return Rewound(w), err
	case FilesRestored{}.Kind():
		w, err := unmarshalData[filesRestoredWire](kind, data)
		var files []FileRestored
		for _, f := range w.Files {
			files = append(files, FileRestored(f))
		}
		return FilesRestored{Files: files}, err
	case TurnEnded{}.Kind():
		w, err := unmarshalData[turnEndedWire](kind, data)
		return TurnEnded{Reason: StopReason(w.Reason), Error: w.Error}, err
	case SubagentStarted{}.Kind():
		w, err := unmarshalData[subagentStartedWire](kind, data)
		return SubagentStarted(w), err
	case SubagentEvent{}.Kind():
		w, err := unmarshalData[subagentEventIn](kind, data)
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(w.Data)) == 0 {
			w.Data = json.RawMessage("{}")
		}
		inner, err := decodePayload(w.Kind, w.Data, dropped)
		if err != nil {
			return nil, fmt.Errorf("subagent %s: %w", w.ID, err)
		}
		return SubagentEvent{ID: w.ID, CallID: w.CallID, Payload: inner}, nil
	case SubagentEnded{}.Kind():
		w, err := unmarshalData[subagentEndedWire](kind, data)
		return SubagentEnded{ID: w.ID, CallID: w.CallID, Reason: StopReason(w.Reason), Error: w.Error}, err
	default:
		return nil, fmt.Errorf("%w %q", ErrUnknownKind, kind)
	}
}

// unmarshalData decodes an event's data object into its wire struct.
func unmarshalData[W any](kind string, data json.RawMessage) (W, error) {
	var w W
	if err := json.Unmarshal(data, &w); err != nil {
		return w, fmt.Errorf("%s data: %w", kind, err)
	}
	return w, nil
}

func toolCallRefsWire(refs []ToolCallRef) []toolCallRefWire {
	if refs == nil {
		return nil
	}
	out := make([]toolCallRefWire, len(refs))
	for i, r := range refs {
		out[i] = toolCallRefWire{ID: r.ID, Name: r.Name, Arguments: r.Arguments}
	}
	return out
}

func toolCallRefs(refs []toolCallRefWire) []ToolCallRef {
	if refs == nil {
		return nil
	}
	out := make([]ToolCallRef, len(refs))
	for i, r := range refs {
		out[i] = ToolCallRef{ID: r.ID, Name: r.Name, Arguments: r.Arguments}
	}
	return out
}

func planEntriesWire(entries []PlanEntry) []planEntryWire {
	if entries == nil {
		return nil
	}
	out := make([]planEntryWire, len(entries))
	for i, e := range entries {
		out[i] = planEntryWire{Content: e.Content, Status: e.Status, Priority: e.Priority}
	}
	return out
}

func planEntries(entries []planEntryWire) []PlanEntry {
	if entries == nil {
		return nil
	}
	out := make([]PlanEntry, len(entries))
	for i, e := range entries {
		out[i] = PlanEntry{Content: e.Content, Status: e.Status, Priority: e.Priority}
	}
	return out
}
