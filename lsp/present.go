package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// renderLocations is what the model reads of a Locations value: one
// "path:line:column: text" line each, then the note, if any.
func renderLocations[A any](_ A, r Locations) ([]presentation.ContentBlock, error) {
	var b strings.Builder
	for _, l := range r.Locations {
		fmt.Fprintf(&b, "%s:%d:%d:", l.Path, l.Line, l.Column)
		if l.Name != "" {
			b.WriteString(" " + l.Name)
		}
		if l.Text != "" {
			b.WriteString(" " + l.Text)
		}
		b.WriteByte('\n')
	}
	if r.Total > len(r.Locations) {
		fmt.Fprintf(&b, "… %d in all; only the first %d are listed\n", r.Total, len(r.Locations))
	}
	switch {
	case r.Note != "":
		b.WriteString(r.Note + ".")
	case len(r.Locations) == 0:
		b.WriteString("No results.")
	}
	return []presentation.ContentBlock{presentation.Text(strings.TrimRight(b.String(), "\n"))}, nil
}

// renderDiagnostics is what the model reads of a Diagnostics value.
func renderDiagnostics(_ DiagnosticsArgs, r Diagnostics) ([]presentation.ContentBlock, error) {
	var b strings.Builder
	for _, d := range r.Diagnostics {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s\n", d.Path, d.Line, d.Column, d.Severity, d.Message)
	}
	if r.Total > len(r.Diagnostics) {
		fmt.Fprintf(&b, "… %d in all; only the first %d are listed\n", r.Total, len(r.Diagnostics))
	}
	if r.Note != "" {
		b.WriteString(r.Note + ".\n")
	} else if len(r.Diagnostics) == 0 {
		b.WriteString("No errors or warnings.\n")
	}
	return []presentation.ContentBlock{presentation.Text(strings.TrimRight(b.String(), "\n"))}, nil
}

// cardMeta is the presentation meta of every tool here: the shape of the
// search card, {"files":[{"path":…,"matches":[{"lineNumber":…,"line":…}]}],"total":…}.
type cardMeta struct {
	Files []cardFile `json:"files"`
	Total int        `json:"total"`
}

type cardFile struct {
	Path    string      `json:"path"`
	Matches []cardMatch `json:"matches"`
}

type cardMatch struct {
	LineNumber int    `json:"lineNumber"`
	Line       string `json:"line"`
}

// add appends a match to the meta, grouping consecutive ones by path.
func (c *cardMeta) add(path string, line int, text string) {
	if n := len(c.Files); n == 0 || c.Files[n-1].Path != path {
		c.Files = append(c.Files, cardFile{Path: path})
	}
	f := &c.Files[len(c.Files)-1]
	f.Matches = append(f.Matches, cardMatch{LineNumber: line, Line: text})
}

// locationsMeta projects a Locations value to the card meta.
func locationsMeta[A any](_ A, r Locations) (any, error) {
	meta := cardMeta{Files: []cardFile{}, Total: r.Total}
	for _, l := range r.Locations {
		text := l.Text
		if l.Name != "" {
			text = l.Name
		}
		meta.add(l.Path, l.Line, text)
	}
	return meta, nil
}

// diagnosticsMeta projects a Diagnostics value to the card meta.
func diagnosticsMeta(_ DiagnosticsArgs, r Diagnostics) (any, error) {
	meta := cardMeta{Files: []cardFile{}, Total: r.Total}
	for _, d := range r.Diagnostics {
		meta.add(d.Path, d.Line, d.Severity+": "+d.Message)
	}
	return meta, nil
}

// presentDiagnosticsCall is diagnostics' pending card.
func presentDiagnosticsCall(a DiagnosticsArgs) presentation.CallView {
	v := presentation.GenericCallView{Title: "Diagnostics", Kind: presentation.KindRead}
	if a.Path != "" {
		v.Title += " " + a.Path
		v.Locations = []presentation.FileLocation{{Path: a.Path}}
	}
	return v
}

// presentPositionCall is the pending card of definition or references:
// the position asked about, which the editor can follow.
func presentPositionCall(name string) func(PositionArgs) presentation.CallView {
	title := map[string]string{DefinitionName: "Definition of ", ReferencesName: "References to "}[name]
	return func(a PositionArgs) presentation.CallView {
		what := a.Symbol
		if what == "" {
			what = fmt.Sprintf("%s:%d:%d", a.FilePath, a.Line, max(a.Column, 1))
		}
		return presentation.GenericCallView{
			Title:     title + what,
			Kind:      presentation.KindSearch,
			Locations: []presentation.FileLocation{{Path: a.FilePath, Line: a.Line}},
		}
	}
}

// presentSymbolsCall is symbols' pending card.
func presentSymbolsCall(a SymbolsArgs) presentation.CallView {
	return presentation.GenericCallView{Title: "Symbols " + a.Query, Kind: presentation.KindSearch}
}

// presentDiagnosticsResult is diagnostics' result card.
func presentDiagnosticsResult(a DiagnosticsArgs, res presentation.ToolResult) presentation.ResultView {
	title := presentDiagnosticsCall(a).(presentation.GenericCallView).Title
	return searchCard(title, res)
}

// presentPositionResult is the result card of definition or
// references: the locations grouped by file, each with its line.
func presentPositionResult(name string) func(PositionArgs, presentation.ToolResult) presentation.ResultView {
	call := presentPositionCall(name)
	return func(a PositionArgs, res presentation.ToolResult) presentation.ResultView {
		return searchCard(call(a).(presentation.GenericCallView).Title, res)
	}
}

// presentSymbolsResult is symbols' result card.
func presentSymbolsResult(a SymbolsArgs, res presentation.ToolResult) presentation.ResultView {
	return searchCard("Symbols "+a.Query, res)
}

// searchCard builds the search card from the meta; it declines (nil) an
// error, malformed meta and an answer with nothing in it, so the result's
// own text (a note, "No results.") is shown.
func searchCard(title string, res presentation.ToolResult) presentation.ResultView {
	if res.IsError {
		return nil
	}
	var meta cardMeta
	trimmed := bytes.TrimSpace([]byte(res.Meta))
	if len(trimmed) == 0 || json.Unmarshal(trimmed, &meta) != nil || len(meta.Files) == 0 {
		return nil
	}
	v := presentation.SearchMatchesView{Title: title, Total: meta.Total}
	shown := 0
	for _, f := range meta.Files {
		sf := presentation.SearchFile{Path: f.Path}
		for _, mt := range f.Matches {
			sf.Matches = append(sf.Matches, presentation.SearchMatch{LineNumber: mt.LineNumber, Line: mt.Line})
			shown++
		}
		v.Files = append(v.Files, sf)
	}
	v.Truncated = meta.Total > shown
	return v
}
