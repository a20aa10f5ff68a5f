package mcp

import (
	"encoding/base64"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dsh-acp/dsh-acp/presentation"
)

func TestContentBlocks(t *testing.T) {
	size := int64(3)
	cases := []struct {
		name string
		in   *sdk.CallToolResult
		want []presentation.ContentBlock
	}{
		{"text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a"}, &sdk.TextContent{Text: "b"}}},
			[]presentation.ContentBlock{presentation.Text("a"), presentation.Text("b")}},
		{"image", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/gif", Data: []byte("GIF")}}},
			[]presentation.ContentBlock{presentation.ImageBlock{MimeType: "image/gif", Data: base64.StdEncoding.EncodeToString([]byte("GIF"))}}},
		{"text resource", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://a", Text: "body"}}}},
			[]presentation.ContentBlock{presentation.Text("Resource mem://a:\nbody")}},
		{"image resource", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://i", MIMEType: "image/png", Blob: []byte("P")}}}},
			[]presentation.ContentBlock{presentation.ImageBlock{MimeType: "image/png", Data: base64.StdEncoding.EncodeToString([]byte("P"))}}},
		{"binary resource", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://z", MIMEType: "application/zip", Blob: []byte("PK")}}}},
			[]presentation.ContentBlock{presentation.Text("[binary resource mem://z (application/zip, 2 bytes) not shown]")}},
		{"link", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ResourceLink{URI: "file:///r.md", Name: "readme", Size: &size}}},
			[]presentation.ContentBlock{presentation.Text("[resource link readme: file:///r.md]")}},
		{"audio", &sdk.CallToolResult{Content: []sdk.Content{&sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")}}},
			[]presentation.ContentBlock{presentation.Text("[audio content (audio/wav, 4 bytes) not shown]")}},
		{"structured only", &sdk.CallToolResult{StructuredContent: map[string]int{"n": 1}},
			[]presentation.ContentBlock{presentation.Text(`{"n":1}`)}},
		{"empty", &sdk.CallToolResult{}, []presentation.ContentBlock{}},
	}
	for _, c := range cases {
		if got := contentBlocks(c.in); !slices.Equal(got, c.want) {
			t.Errorf("%s: %#v, want %#v", c.name, got, c.want)
		}
	}
}
