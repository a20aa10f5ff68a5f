package mcp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// contentBlocks converts a tool result's content to model-facing blocks:
// text stays text; an image becomes an ImageBlock; an embedded text
// resource becomes text headed by its URI, an embedded image blob an
// ImageBlock, and any other blob a one-line note; a resource link, audio or
// any other content becomes a one-line note. A result with no content but
// structured content gets that value as JSON text.
func contentBlocks(res *sdk.CallToolResult) []presentation.ContentBlock {
	blocks := make([]presentation.ContentBlock, 0, len(res.Content))
	for _, c := range res.Content {
		blocks = append(blocks, contentBlock(c))
	}
	if len(blocks) == 0 && res.StructuredContent != nil {
		if data, err := json.Marshal(res.StructuredContent); err == nil {
			blocks = append(blocks, presentation.Text(string(data)))
		}
	}
	return blocks
}

func contentBlock(c sdk.Content) presentation.ContentBlock {
	switch c := c.(type) {
	case *sdk.TextContent:
		return presentation.Text(c.Text)
	case *sdk.ImageContent:
		return presentation.ImageBlock{MimeType: c.MIMEType, Data: base64.StdEncoding.EncodeToString(c.Data)}
	case *sdk.EmbeddedResource:
		return resourceBlock(c.Resource)
	case *sdk.ResourceLink:
		return presentation.Text(fmt.Sprintf("[resource link %s: %s]", c.Name, c.URI))
	case *sdk.AudioContent:
		return presentation.Text(fmt.Sprintf("[audio content (%s, %d bytes) not shown]", c.MIMEType, len(c.Data)))
	default:
		return presentation.Text(fmt.Sprintf("[%T content not shown]", c))
	}
}

func resourceBlock(r *sdk.ResourceContents) presentation.ContentBlock {
	switch {
	case r == nil:
		return presentation.Text("[empty resource]")
	case r.Blob == nil:
		return presentation.Text(fmt.Sprintf("Resource %s:\n%s", r.URI, r.Text))
	case strings.HasPrefix(r.MIMEType, "image/"):
		return presentation.ImageBlock{MimeType: r.MIMEType, Data: base64.StdEncoding.EncodeToString(r.Blob)}
	default:
		return presentation.Text(fmt.Sprintf("[binary resource %s (%s, %d bytes) not shown]", r.URI, r.MIMEType, len(r.Blob)))
	}
}
