package presentation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ContentBlock is one piece of model-facing tool output. The union is closed:
// TextBlock, ImageBlock and UnknownBlock are its only members.
type ContentBlock interface {
	// BlockType is the block's JSON "type" tag.
	BlockType() string
	isContentBlock()
}

// TextBlock is plain text.
type TextBlock struct {
	Text string
}

// ImageBlock is an image, base64-encoded in Data.
type ImageBlock struct {
	MimeType string
	Data     string
}

// UnknownBlock keeps a block of a type this build does not know, so content
// read back from an older or newer log survives a round trip. JSON is the
// block's canonical JSON text.
type UnknownBlock struct {
	Type string
	JSON string
}

// Text returns a TextBlock holding s.
func Text(s string) TextBlock { return TextBlock{Text: s} }

// BlockType returns "text".
func (TextBlock) BlockType() string { return "text" }

// BlockType returns "image".
func (ImageBlock) BlockType() string { return "image" }

// BlockType returns the unknown block's own type tag.
func (b UnknownBlock) BlockType() string { return b.Type }

func (TextBlock) isContentBlock()    {}
func (ImageBlock) isContentBlock()   {}
func (UnknownBlock) isContentBlock() {}

// MarshalJSON encodes the block as {"type":"text","text":…}.
func (b TextBlock) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"text", b.Text})
}

// MarshalJSON encodes the block as {"type":"image","mimeType":…,"data":…}.
func (b ImageBlock) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type     string `json:"type"`
		MimeType string `json:"mimeType"`
		Data     string `json:"data"`
	}{"image", b.MimeType, b.Data})
}

// MarshalJSON returns the kept JSON text unchanged.
func (b UnknownBlock) MarshalJSON() ([]byte, error) {
	if !json.Valid([]byte(b.JSON)) {
		return nil, fmt.Errorf("unknown %q content block holds invalid JSON", b.Type)
	}
	return []byte(b.JSON), nil
}

// DecodeContent decodes a JSON array of content blocks. Blocks of an unknown
// type are kept as UnknownBlock; a block without a string "type" is an error.
func DecodeContent(data []byte) ([]ContentBlock, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("decode content blocks: %w", err)
	}
	blocks := make([]ContentBlock, 0, len(raws))
	for i, raw := range raws {
		block, err := decodeBlock(raw)
		if err != nil {
			return nil, fmt.Errorf("decode content block %d: %w", i, err)
		}
		blocks = append(blocks, block)
	}
	return blocks, nil
}

func decodeBlock(raw json.RawMessage) (ContentBlock, error) {
	var fields struct {
		Type     *string `json:"type"`
		Text     string  `json:"text"`
		MimeType string  `json:"mimeType"`
		Data     string  `json:"data"`
	}
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	if fields.Type == nil {
		return nil, fmt.Errorf("missing \"type\"")
	}
	switch *fields.Type {
	case "text":
		return TextBlock{Text: fields.Text}, nil
	case "image":
		return ImageBlock{MimeType: fields.MimeType, Data: fields.Data}, nil
	default:
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			return nil, err
		}
		return UnknownBlock{Type: *fields.Type, JSON: compact.String()}, nil
	}
}

// JoinText renders blocks as one string: text blocks contribute their text,
// any other block contributes "[<type> content]", joined by "\n".
func JoinText(blocks []ContentBlock) string {
	var b strings.Builder
	for i, block := range blocks {
		if i > 0 {
			b.WriteByte('\n')
		}
		if t, ok := block.(TextBlock); ok {
			b.WriteString(t.Text)
			continue
		}
		b.WriteString("[" + block.BlockType() + " content]")
	}
	return b.String()
}

// CloneContent returns a copy of blocks that a caller may change freely.
// Blocks are values, so a shallow copy of the slice is a deep copy.
func CloneContent(blocks []ContentBlock) []ContentBlock {
	if blocks == nil {
		return nil
	}
	return append([]ContentBlock(nil), blocks...)
}
