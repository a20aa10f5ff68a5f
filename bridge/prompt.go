package bridge

import (
	"strconv"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// promptContent turns a prompt into the user's message: text blocks as
// they are, resource links as a line naming the resource. Other blocks are
// refused rather than silently dropped, and so is an empty prompt.
func promptContent(blocks []acpsdk.ContentBlock) ([]presentation.ContentBlock, error) {
	var b strings.Builder
	for _, block := range blocks {
		switch {
		// The SDK decodes a block of a type it does not know as a text
		// block carrying that type: refuse it like any other.
		case block.Text != nil && (block.Text.Type == "" || block.Text.Type == "text"):
			b.WriteString(block.Text.Text)
		case block.ResourceLink != nil:
			link := block.ResourceLink
			b.WriteString("\n[resource_link name=" + strconv.Quote(link.Name) + " uri=" + strconv.Quote(link.Uri) + "]\n")
		default:
			return nil, acp.InvalidParams("only text and resource_link prompt content is supported; image, audio and embedded resource blocks are refused rather than silently dropped")
		}
	}
	text := b.String()
	if strings.TrimSpace(text) == "" {
		return nil, acp.InvalidParams("empty prompt")
	}
	return []presentation.ContentBlock{presentation.Text(text)}, nil
}

// stopReason maps a turn's end to the protocol's stop reason.
func stopReason(r session.StopReason) acpsdk.StopReason {
	switch r {
	case session.StopMaxTokens:
		return acpsdk.StopReasonMaxTokens
	case session.StopMaxTurnRequests:
		return acpsdk.StopReasonMaxTurnRequests
	case session.StopRefusal:
		return acpsdk.StopReasonRefusal
	case session.StopCancelled:
		return acpsdk.StopReasonCancelled
	default:
		return acpsdk.StopReasonEndTurn
	}
}
