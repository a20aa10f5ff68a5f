package search

import (
	"github.com/dsh-acp/dsh-acp/presentation"
)

// pathsMeta is glob's presentation meta, the shape of the search card:
// {"paths":[…],"truncated":…,"total":…}.
type pathsMeta struct {
	Paths     []string `json:"paths"`
	Truncated bool     `json:"truncated"`
	Total     int      `json:"total"`
}

// globMeta projects glob's value to its presentation meta.
func globMeta(_ globArgs, r globResult) (any, error) {
	return pathsMeta{Paths: r.Paths, Truncated: r.Truncated, Total: r.Total}, nil
}

// globTitle is 'Glob <pattern>[ in <path>]'.
func globTitle(a globArgs) string {
	if a.Path != "" {
		return "Glob " + a.Pattern + " in " + a.Path
	}
	return "Glob " + a.Pattern
}

// presentGlobCall is glob's pending card.
func presentGlobCall(a globArgs) presentation.CallView {
	return presentation.GenericCallView{
		Title: globTitle(a),
		Kind:  presentation.KindSearch,
	}
}

// presentGlobResult is glob's search card, built from the meta. It
// declines (nil) an error and meta that is missing or malformed.
func presentGlobResult(a globArgs, res presentation.ToolResult) presentation.ResultView {
	if res.IsError {
		return nil
	}
	var meta struct {
		Paths     []*string `json:"paths"`
		Truncated *bool     `json:"truncated"`
		Total     *int      `json:"total"`
	}
	if !decodeObject(res.Meta, &meta) || meta.Paths == nil || meta.Truncated == nil || meta.Total == nil || *meta.Total < 0 {
		return nil
	}
	view := presentation.SearchPathsView{Title: globTitle(a), Paths: []string{}, Truncated: *meta.Truncated, Total: *meta.Total}
	for _, p := range meta.Paths {
		if p == nil || *p == "" {
			return nil
		}
		view.Paths = append(view.Paths, *p)
	}
	return view
}
