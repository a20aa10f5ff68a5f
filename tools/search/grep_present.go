package search

import (
	"bytes"
	"encoding/json"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// matchesMeta is grep's presentation meta, the shape of the search card:
// {"files":[{"path":…,"matches":[{"lineNumber":…,"line":…}]}],"truncated":…,"total":…}.
type matchesMeta struct {
	Files     []grepFile `json:"files"`
	Truncated bool       `json:"truncated"`
	Total     int        `json:"total"`
}

// grepMeta projects grep's value to its presentation meta.
func grepMeta(_ grepArgs, r grepResult) (any, error) {
	return matchesMeta{Files: r.Files, Truncated: r.Truncated, Total: r.Total}, nil
}

// grepTitle is 'Grep <pattern>[ in <path>][ (<include>)]'.
func grepTitle(a grepArgs) string {
	title := "Grep " + a.Pattern
	if a.Path != "" {
		title += " in " + a.Path
	}
	if a.Include != "" {
		title += " (" + a.Include + ")"
	}
	return title
}

// presentGrepCall is grep's pending card.
func presentGrepCall(a grepArgs) presentation.CallView {
	return presentation.GenericCallView{
		Title: grepTitle(a),
		Kind:  presentation.KindSearch,
	}
}

// presentGrepResult is grep's search card, built from the meta. It
// declines (nil) an error and meta that is missing or malformed.
func presentGrepResult(a grepArgs, res presentation.ToolResult) presentation.ResultView {
	if res.IsError {
		return nil
	}
	var meta struct {
		Files []struct {
			Path    *string `json:"path"`
			Matches []struct {
				LineNumber *int    `json:"lineNumber"`
				Line       *string `json:"line"`
			} `json:"matches"`
		} `json:"files"`
		Truncated *bool `json:"truncated"`
		Total     *int  `json:"total"`
	}
	if !decodeObject(res.Meta, &meta) || meta.Files == nil || meta.Truncated == nil || meta.Total == nil || *meta.Total < 0 {
		return nil
	}
	view := presentation.SearchMatchesView{Title: grepTitle(a), Truncated: *meta.Truncated, Total: *meta.Total, Files: []presentation.SearchFile{}}
	for _, f := range meta.Files {
		if f.Path == nil || *f.Path == "" {
			return nil
		}
		file := presentation.SearchFile{Path: *f.Path, Matches: []presentation.SearchMatch{}}
		for _, m := range f.Matches {
			if m.LineNumber == nil || *m.LineNumber < 1 || m.Line == nil {
				return nil
			}
			file.Matches = append(file.Matches, presentation.SearchMatch{LineNumber: *m.LineNumber, Line: *m.Line})
		}
		view.Files = append(view.Files, file)
	}
	return view
}

// decodeObject decodes meta, which must be a JSON object, into dst.
func decodeObject(meta string, dst any) bool {
	trimmed := bytes.TrimSpace([]byte(meta))
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return false
	}
	return json.Unmarshal(trimmed, dst) == nil
}
