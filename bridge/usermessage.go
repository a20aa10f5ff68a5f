package bridge

import (
	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// userChunks shows what the user sent as user_message_chunk updates, in
// order: each text block that is not empty, and each image with its data,
// as the user saw it when they sent it. An image goes to every client,
// one that did not advertise promptCapabilities.image too: that
// capability says what the client may send, and an image block is valid
// content of any update. Blocks of a type this build does not know are
// left out.
func userChunks(content []presentation.ContentBlock) []acp.Update {
	var out []acp.Update
	for _, b := range content {
		switch b := b.(type) {
		case presentation.TextBlock:
			if b.Text != "" {
				out = append(out, acp.UserMessageChunk{Content: acp.Text(b.Text)})
			}
		case presentation.ImageBlock:
			out = append(out, acp.UserMessageChunk{Content: acp.ImageContent{Data: b.Data, MimeType: b.MimeType}})
		}
	}
	return out
}
