package search

import (
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// globResult is glob's value: the paths shown, newest first, and how many
// matched in all.
type globResult struct {
	Paths     []string `json:"paths"`
	Total     int      `json:"total"`
	Truncated bool     `json:"truncated"`
}

// renderGlob is what the model reads: one path per line, newest first,
// after a truncation note when some were left out.
func renderGlob(args globArgs, r globResult) ([]presentation.ContentBlock, error) {
	var b strings.Builder
	switch {
	case r.Total == 0:
		fmt.Fprintf(&b, "No files match %s in %s.", args.Pattern, orCwd(args.Path))
		if !strings.Contains(args.Pattern, "/") {
			fmt.Fprintf(&b, " The pattern only matches directly in that directory; use \"**/%s\" to search subdirectories too.", args.Pattern)
		}
	case r.Truncated:
		fmt.Fprintf(&b, "Found %d files; showing the %d most recently modified: narrow the pattern or pass a subdirectory as path to see the rest.\n", r.Total, len(r.Paths))
	}
	b.WriteString(strings.Join(r.Paths, "\n"))
	return []presentation.ContentBlock{presentation.Text(b.String())}, nil
}
