package bridge

import (
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// contentItems maps tool content to ToolCallContent: text and images are
// kept, blocks the protocol cannot show are dropped. The result is never
// nil, so an update built from it always says what the content is.
func contentItems(blocks []presentation.ContentBlock) []acp.ToolCallContent {
	items := []acp.ToolCallContent{}
	for _, b := range blocks {
		switch b := b.(type) {
		case presentation.TextBlock:
			items = append(items, textItem(b.Text))
		case presentation.ImageBlock:
			items = append(items, acp.ContentItem{Content: acp.ImageContent{Data: b.Data, MimeType: b.MimeType}})
		}
	}
	return items
}

func textItem(s string) acp.ContentItem {
	return acp.ContentItem{Content: acp.Text(s)}
}

// codeFence shows file text in a fence long enough for the text, tagged
// with its language.
func codeFence(body, lang string) string { return presentation.Fence(lang, body) }

// searchText lists a search result's matches or paths.
func searchMatchesText(v presentation.SearchMatchesView) string {
	var b strings.Builder
	for _, f := range v.Files {
		for _, m := range f.Matches {
			fmt.Fprintf(&b, "%s:%d: %s\n", f.Path, m.LineNumber, m.Line)
		}
	}
	if v.Truncated {
		fmt.Fprintf(&b, "… (%d matches in all; narrow the search to see the rest)\n", v.Total)
	}
	return strings.TrimRight(b.String(), "\n")
}

func searchPathsText(v presentation.SearchPathsView) string {
	var b strings.Builder
	for _, p := range v.Paths {
		b.WriteString(p)
		b.WriteByte('\n')
	}
	if v.Truncated {
		fmt.Fprintf(&b, "… (%d paths in all)\n", v.Total)
	}
	return strings.TrimRight(b.String(), "\n")
}
