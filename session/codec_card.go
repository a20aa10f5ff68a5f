package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// contentWire decodes a list of content blocks in presentation's own JSON
// form ({"type":"text","text":…}); blocks of a type this build does not
// know come back as presentation.UnknownBlock.
type contentWire []presentation.ContentBlock

// UnmarshalJSON decodes the blocks with presentation.DecodeContent.
func (c *contentWire) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		*c = nil
		return nil
	}
	blocks, err := presentation.DecodeContent(data)
	if err != nil {
		return err
	}
	*c = blocks
	return nil
}

type textBlockWire struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type imageBlockWire struct {
	Type     string `json:"type"`
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

// encodeContent returns the wire form of blocks, in presentation's JSON
// form, or nil for none. An UnknownBlock is kept as its JSON text, which
// encoding checks; a block type without a case here fails the encoding.
func encodeContent(blocks []presentation.ContentBlock) any {
	if len(blocks) == 0 {
		return nil
	}
	out := make([]any, len(blocks))
	for i, b := range blocks {
		switch b := b.(type) {
		case presentation.TextBlock:
			out[i] = textBlockWire{Type: b.BlockType(), Text: b.Text}
		case presentation.ImageBlock:
			out[i] = imageBlockWire{Type: b.BlockType(), MimeType: b.MimeType, Data: b.Data}
		case presentation.UnknownBlock:
			out[i] = b
		default:
			out[i] = unencodableBlock{b}
		}
	}
	return out
}

// unencodableBlock fails the encoding of a content block type the codec
// has no case for.
type unencodableBlock struct {
	block presentation.ContentBlock
}

// MarshalJSON returns an error naming the block's type.
func (u unencodableBlock) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("content block %T has no codec", u.block)
}

// The card tags on disk. The two search cards share Card() "search", so
// they are told apart by tags of their own.
const (
	cardGeneric       = "generic"
	cardTerminal      = "terminal"
	cardDiff          = "diff"
	cardRead          = "read"
	cardSearchMatches = "search_matches"
	cardSearchPaths   = "search_paths"
)

type locationWire struct {
	Path string `json:"path,omitempty"`
	Line int    `json:"line,omitempty"`
}

type fileDiffWire struct {
	Path    string  `json:"path,omitempty"`
	OldText *string `json:"old_text,omitempty"`
	NewText string  `json:"new_text,omitempty"`
	Line    int     `json:"line,omitempty"`
}

type genericCallWire struct {
	Card      string         `json:"card"`
	Title     string         `json:"title,omitempty"`
	Kind      string         `json:"kind,omitempty"`
	Content   any            `json:"content,omitempty"`
	Locations []locationWire `json:"locations,omitempty"`
}

type genericCallIn struct {
	genericCallWire
	Content contentWire `json:"content,omitempty"`
}

type terminalCallWire struct {
	Card        string `json:"card"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Cwd         string `json:"cwd,omitempty"`
}

type diffCallWire struct {
	Card      string         `json:"card"`
	Title     string         `json:"title,omitempty"`
	Diffs     []fileDiffWire `json:"diffs,omitempty"`
	Locations []locationWire `json:"locations,omitempty"`
}

type genericResultWire struct {
	Card    string `json:"card"`
	Title   string `json:"title,omitempty"`
	Content any    `json:"content,omitempty"`
	Failed  bool   `json:"failed,omitempty"`
	Summary bool   `json:"summary,omitempty"`
}

type genericResultIn struct {
	genericResultWire
	Content contentWire `json:"content,omitempty"`
}

type terminalResultWire struct {
	Card     string `json:"card"`
	Title    string `json:"title,omitempty"`
	Output   string `json:"output,omitempty"`
	ExitCode *int   `json:"exit_code,omitempty"`
	Signal   string `json:"signal,omitempty"`
	// TimeoutMs is the timeout that stopped the command, in milliseconds.
	TimeoutMs int64 `json:"timeout_ms,omitempty"`
}

type diffResultWire struct {
	Card      string         `json:"card"`
	Title     string         `json:"title,omitempty"`
	Diffs     []fileDiffWire `json:"diffs,omitempty"`
	Notes     string         `json:"notes,omitempty"`
	Locations []locationWire `json:"locations,omitempty"`
}

type readLineWire struct {
	Number int    `json:"number,omitempty"`
	Text   string `json:"text,omitempty"`
}

type readResultWire struct {
	Card       string         `json:"card"`
	Title      string         `json:"title,omitempty"`
	Path       string         `json:"path,omitempty"`
	Offset     int            `json:"offset,omitempty"`
	Lines      []readLineWire `json:"lines,omitempty"`
	TotalLines int            `json:"total_lines,omitempty"`
	Lang       string         `json:"lang,omitempty"`
	Content    string         `json:"content,omitempty"`
}

type searchMatchWire struct {
	LineNumber int    `json:"line_number,omitempty"`
	Line       string `json:"line,omitempty"`
}

type searchFileWire struct {
	Path    string            `json:"path,omitempty"`
	Matches []searchMatchWire `json:"matches,omitempty"`
}

type searchMatchesWire struct {
	Card      string           `json:"card"`
	Title     string           `json:"title,omitempty"`
	Files     []searchFileWire `json:"files,omitempty"`
	Truncated bool             `json:"truncated,omitempty"`
	Total     int              `json:"total,omitempty"`
}

type searchPathsWire struct {
	Card      string   `json:"card"`
	Title     string   `json:"title,omitempty"`
	Paths     []string `json:"paths,omitempty"`
	Truncated bool     `json:"truncated,omitempty"`
	Total     int      `json:"total,omitempty"`
}

// encodeCallView returns the wire struct of a pending call's card, or nil
// for no card.
func encodeCallView(v presentation.CallView) (any, error) {
	var w any
	switch v := v.(type) {
	case nil:
		return nil, nil
	case presentation.GenericCallView:
		w = genericCallWire{Card: cardGeneric, Title: v.Title, Kind: string(v.Kind), Content: encodeContent(v.Content), Locations: locationsWire(v.Locations)}
	case presentation.TerminalCallView:
		w = terminalCallWire{Card: cardTerminal, Title: v.Title, Description: v.Description, Cwd: v.Cwd}
	case presentation.DiffCallView:
		w = diffCallWire{Card: cardDiff, Title: v.Title, Diffs: diffsWire(v.Diffs), Locations: locationsWire(v.Locations)}
	default:
		return nil, fmt.Errorf("call card %T has no codec", v)
	}
	return w, nil
}

// decodeCallView decodes a pending call's card; no JSON is no card, and a
// card this build does not know is reported to dropped and read as none.
func decodeCallView(data json.RawMessage, dropped func(string)) (presentation.CallView, error) {
	card, err := cardTag(data)
	if err != nil || card == "" {
		return nil, err
	}
	switch card {
	case cardGeneric:
		w, err := unmarshalData[genericCallIn]("generic call card", data)
		return presentation.GenericCallView{Title: w.Title, Kind: presentation.ToolCallKind(w.Kind), Content: w.Content, Locations: locations(w.Locations)}, err
	case cardTerminal:
		w, err := unmarshalData[terminalCallWire]("terminal call card", data)
		return presentation.TerminalCallView{Title: w.Title, Description: w.Description, Cwd: w.Cwd}, err
	case cardDiff:
		w, err := unmarshalData[diffCallWire]("diff call card", data)
		return presentation.DiffCallView{Title: w.Title, Diffs: diffs(w.Diffs), Locations: locations(w.Locations)}, err
	default:
		if dropped != nil {
			dropped(card)
		}
		return nil, nil
	}
}

// encodeResultView returns the wire struct of a finished call's card, or
// nil for no card.
func encodeResultView(v presentation.ResultView) (any, error) {
	var w any
	switch v := v.(type) {
	case nil:
		return nil, nil
	case presentation.GenericResultView:
		w = genericResultWire{Card: cardGeneric, Title: v.Title, Content: encodeContent(v.Content), Failed: v.Failed, Summary: v.Summary}
	case presentation.TerminalResultView:
		w = terminalResultWire{Card: cardTerminal, Title: v.Title, Output: v.Output, ExitCode: v.ExitCode, Signal: v.Signal, TimeoutMs: v.Timeout.Milliseconds()}
	case presentation.DiffResultView:
		w = diffResultWire{Card: cardDiff, Title: v.Title, Diffs: diffsWire(v.Diffs), Notes: v.Notes, Locations: locationsWire(v.Locations)}
	case presentation.ReadResultView:
		w = readResultWire{Card: cardRead, Title: v.Title, Path: v.Path, Offset: v.Offset, Lines: readLinesWire(v.Lines), TotalLines: v.TotalLines, Lang: v.Lang, Content: v.Content}
	case presentation.SearchMatchesView:
		w = searchMatchesWire{Card: cardSearchMatches, Title: v.Title, Files: searchFilesWire(v.Files), Truncated: v.Truncated, Total: v.Total}
	case presentation.SearchPathsView:
		w = searchPathsWire{Card: cardSearchPaths, Title: v.Title, Paths: v.Paths, Truncated: v.Truncated, Total: v.Total}
	default:
		return nil, fmt.Errorf("result card %T has no codec", v)
	}
	return w, nil
}

// decodeResultView decodes a finished call's card; no JSON is no card, and
// a card this build does not know is reported to dropped and read as none.
func decodeResultView(data json.RawMessage, dropped func(string)) (presentation.ResultView, error) {
	card, err := cardTag(data)
	if err != nil || card == "" {
		return nil, err
	}
	switch card {
	case cardGeneric:
		w, err := unmarshalData[genericResultIn]("generic result card", data)
		return presentation.GenericResultView{Title: w.Title, Content: w.Content, Failed: w.Failed, Summary: w.Summary}, err
	case cardTerminal:
		w, err := unmarshalData[terminalResultWire]("terminal result card", data)
		return presentation.TerminalResultView{Title: w.Title, Output: w.Output, ExitCode: w.ExitCode, Signal: w.Signal, Timeout: time.Duration(w.TimeoutMs) * time.Millisecond}, err
	case cardDiff:
		w, err := unmarshalData[diffResultWire]("diff result card", data)
		return presentation.DiffResultView{Title: w.Title, Diffs: diffs(w.Diffs), Notes: w.Notes, Locations: locations(w.Locations)}, err
	case cardRead:
		w, err := unmarshalData[readResultWire]("read result card", data)
		return presentation.ReadResultView{Title: w.Title, Path: w.Path, Offset: w.Offset, Lines: readLines(w.Lines), TotalLines: w.TotalLines, Lang: w.Lang, Content: w.Content}, err
	case cardSearchMatches:
		w, err := unmarshalData[searchMatchesWire]("search matches card", data)
		return presentation.SearchMatchesView{Title: w.Title, Files: searchFiles(w.Files), Truncated: w.Truncated, Total: w.Total}, err
	case cardSearchPaths:
		w, err := unmarshalData[searchPathsWire]("search paths card", data)
		return presentation.SearchPathsView{Title: w.Title, Paths: w.Paths, Truncated: w.Truncated, Total: w.Total}, err
	default:
		if dropped != nil {
			dropped(card)
		}
		return nil, nil
	}
}

// cardTag returns the "card" tag of a card's JSON, or "" for no card
// (absent or null).
func cardTag(data json.RawMessage) (string, error) {
	if len(data) == 0 || bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return "", nil
	}
	var tag struct {
		Card string `json:"card"`
	}
	if err := json.Unmarshal(data, &tag); err != nil {
		return "", fmt.Errorf("card: %w", err)
	}
	if tag.Card == "" {
		return "", fmt.Errorf("card without a \"card\" tag")
	}
	return tag.Card, nil
}

func locationsWire(locs []presentation.FileLocation) []locationWire {
	if locs == nil {
		return nil
	}
	out := make([]locationWire, len(locs))
	for i, l := range locs {
		out[i] = locationWire{Path: l.Path, Line: l.Line}
	}
	return out
}

func locations(locs []locationWire) []presentation.FileLocation {
	if locs == nil {
		return nil
	}
	out := make([]presentation.FileLocation, len(locs))
	for i, l := range locs {
		out[i] = presentation.FileLocation{Path: l.Path, Line: l.Line}
	}
	return out
}

func diffsWire(ds []presentation.FileDiff) []fileDiffWire {
	if ds == nil {
		return nil
	}
	out := make([]fileDiffWire, len(ds))
	for i, d := range ds {
		out[i] = fileDiffWire{Path: d.Path, OldText: d.OldText, NewText: d.NewText, Line: d.Line}
	}
	return out
}

func diffs(ds []fileDiffWire) []presentation.FileDiff {
	if ds == nil {
		return nil
	}
	out := make([]presentation.FileDiff, len(ds))
	for i, d := range ds {
		out[i] = presentation.FileDiff{Path: d.Path, OldText: d.OldText, NewText: d.NewText, Line: d.Line}
	}
	return out
}

func readLinesWire(lines []presentation.ReadFileLine) []readLineWire {
	if lines == nil {
		return nil
	}
	out := make([]readLineWire, len(lines))
	for i, l := range lines {
		out[i] = readLineWire{Number: l.Number, Text: l.Text}
	}
	return out
}

func readLines(lines []readLineWire) []presentation.ReadFileLine {
	if lines == nil {
		return nil
	}
	out := make([]presentation.ReadFileLine, len(lines))
	for i, l := range lines {
		out[i] = presentation.ReadFileLine{Number: l.Number, Text: l.Text}
	}
	return out
}

func searchFilesWire(files []presentation.SearchFile) []searchFileWire {
	if files == nil {
		return nil
	}
	out := make([]searchFileWire, len(files))
	for i, f := range files {
		var matches []searchMatchWire
		if f.Matches != nil {
			matches = make([]searchMatchWire, len(f.Matches))
			for j, m := range f.Matches {
				matches[j] = searchMatchWire{LineNumber: m.LineNumber, Line: m.Line}
			}
		}
		out[i] = searchFileWire{Path: f.Path, Matches: matches}
	}
	return out
}

func searchFiles(files []searchFileWire) []presentation.SearchFile {
	if files == nil {
		return nil
	}
	out := make([]presentation.SearchFile, len(files))
	for i, f := range files {
		var matches []presentation.SearchMatch
		if f.Matches != nil {
			matches = make([]presentation.SearchMatch, len(f.Matches))
			for j, m := range f.Matches {
				matches[j] = presentation.SearchMatch{LineNumber: m.LineNumber, Line: m.Line}
			}
		}
		out[i] = presentation.SearchFile{Path: f.Path, Matches: matches}
	}
	return out
}
