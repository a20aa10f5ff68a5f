package bridge

import (
	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// userChunks shows what the user sent as user_message_chunk updates, in
// order: each text block that is not empty, and each image with its data,
// as the user saw it when they sent it. An image goes to every client:
// promptCapabilities.image says what a client may send the agent, not
// what it is shown, and an image block is valid content of any update. An image without data or type, and blocks of
// a type this build does not know, are left out. Each chunk carries meta
// as its _meta (nil: none).
func userChunks(content []presentation.ContentBlock, meta map[string]any) []acp.Update {
	var out []acp.Update
	for _, b := range content {
		switch b := b.(type) {
		case presentation.TextBlock:
			if b.Text != "" {
				out = append(out, acp.UserMessageChunk{Content: acp.Text(b.Text), Meta: meta})
			}
		case presentation.ImageBlock:
			if b.Data == "" || b.MimeType == "" {
				continue // nothing to show
			}
			out = append(out, acp.UserMessageChunk{Content: acp.ImageContent{Data: b.Data, MimeType: b.MimeType}, Meta: meta})
		}
	}
	return out
}
