package search

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// grepResult is grep's value: the matches shown, grouped by file in path
// order, and how many there were in all.
type grepResult struct {
	Files     []grepFile `json:"files"`
	Total     int        `json:"total"`
	FileCount int        `json:"fileCount"`
	Truncated bool       `json:"truncated"`
}

// grepFile is the matches shown from one file. Path is relative to the
// working directory when the file lies below it.
type grepFile struct {
	abs     string
	Path    string     `json:"path"`
	Matches []grepLine `json:"matches"`
}

// grepLine is one matching line.
type grepLine struct {
	LineNumber int    `json:"lineNumber"`
	Line       string `json:"line"`
}

// renderGrep is what the model reads:
//
//	Found 3 matches in 2 files.
//
//	src/a.go:
//	  12: func A() {
//	  40: 	A()
//
//	src/b.go:
//	  7: var a = A
func renderGrep(args grepArgs, r grepResult) ([]presentation.ContentBlock, error) {
	var b strings.Builder
	if r.Total == 0 {
		fmt.Fprintf(&b, "No matches for %s in %s%s.", strconv.Quote(args.Pattern), orCwd(args.Path), includeNote(args.Include))
		return []presentation.ContentBlock{presentation.Text(b.String())}, nil
	}
	fmt.Fprintf(&b, "Found %s in %s.", plural(r.Total, "match", "matches"), plural(r.FileCount, "file", "files"))
	if r.Truncated {
		shown := 0
		for _, f := range r.Files {
			shown += len(f.Matches)
		}
		fmt.Fprintf(&b, " Showing the first %d, by path and line: narrow the search with a more specific pattern, a path to a subdirectory or file, or an include filter such as \"*.go\".", shown)
	}
	for _, f := range r.Files {
		fmt.Fprintf(&b, "\n\n%s:", f.Path)
		for _, m := range f.Matches {
			fmt.Fprintf(&b, "\n  %d: %s", m.LineNumber, m.Line)
		}
	}
	return []presentation.ContentBlock{presentation.Text(b.String())}, nil
}

// orCwd names the searched path for a message.
func orCwd(path string) string {
	if path == "" {
		return "the working directory"
	}
	return path
}

// includeNote mentions the include filter in a message.
func includeNote(include string) string {
	if include == "" {
		return ""
	}
	return " (files matching " + include + ")"
}

// plural formats n with the singular or plural noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
