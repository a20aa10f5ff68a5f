package bridge

import (
	"context"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"
	"go.lsp.dev/jsonrpc2"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// promptWorkspace is a workspace root with a few files, and a directory
// outside it.
type promptWorkspace struct {
	root, outside string
}

func newPromptWorkspace(t *testing.T) promptWorkspace {
	t.Helper()
	dir := t.TempDir()
	w := promptWorkspace{root: filepath.Join(dir, "ws"), outside: filepath.Join(dir, "outside")}
	files := map[string]string{
		filepath.Join(w.root, "main.go"):       "package main\n",
		filepath.Join(w.root, "big.txt"):       strings.Repeat("0123456789abcde\n", (maxPromptText/16)+100),
		filepath.Join(w.root, "bin.dat"):       "\x00\x01\x02",
		filepath.Join(w.outside, "secret.txt"): "secret\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(w.outside, "secret.txt"), filepath.Join(w.root, "escape.txt")); err != nil {
		t.Fatal(err)
	}
	return w
}

func fileURI(p string) string { return "file://" + filepath.ToSlash(p) }

func textBlock(s string) acpsdk.ContentBlock { return acpsdk.TextBlock(s) }

func blobResource(uri, mime, blob string) acpsdk.ContentBlock {
	return acpsdk.ResourceBlock(acpsdk.EmbeddedResourceResource{BlobResourceContents: &acpsdk.BlobResourceContents{Uri: uri, MimeType: &mime, Blob: blob}})
}

func textResource(uri, text string) acpsdk.ContentBlock {
	return acpsdk.ResourceBlock(acpsdk.EmbeddedResourceResource{TextResourceContents: &acpsdk.TextResourceContents{Uri: uri, Text: text}})
}

func TestPromptContentBlocks(t *testing.T) {
	w := newPromptWorkspace(t)
	reader := newPromptReader([]string{w.root}, nil)
	png := presentation.ImageBlock{MimeType: "image/png", Data: "iVBORw0KGgo="}
	bigText := strings.Repeat("x", maxPromptText+10)
	tests := []struct {
		name   string
		blocks []acpsdk.ContentBlock
		want   []presentation.ContentBlock
		// wantText, when set, replaces want: the single text block must
		// contain each of these.
		wantText []string
		// notText must not appear in the single text block.
		notText []string
		// wantErr is a part of the -32602 message; "" expects no error.
		wantErr string
	}{
		{name: "text", blocks: []acpsdk.ContentBlock{textBlock("hello "), textBlock("world")},
			want: []presentation.ContentBlock{presentation.Text("hello world")}},
		{name: "image between text", blocks: []acpsdk.ContentBlock{textBlock("see "), acpsdk.ImageBlock(png.Data, png.MimeType), textBlock(" here")},
			want: []presentation.ContentBlock{presentation.Text("see "), png, presentation.Text(" here")}},
		{name: "an image alone is a prompt", blocks: []acpsdk.ContentBlock{acpsdk.ImageBlock(png.Data, png.MimeType)},
			want: []presentation.ContentBlock{png}},
		{name: "image of a type that is no image", blocks: []acpsdk.ContentBlock{acpsdk.ImageBlock(png.Data, "text/plain")},
			wantErr: `image prompt content: mimeType "text/plain" is not an image type`},
		{name: "image whose data is not base64", blocks: []acpsdk.ContentBlock{acpsdk.ImageBlock("not base64!", "image/png")},
			wantErr: "the image data is not base64"},
		{name: "audio is refused", blocks: []acpsdk.ContentBlock{textBlock("hear"), acpsdk.AudioBlock("UklGRg==", "audio/wav")},
			wantErr: "audio prompt content (audio/wav) is not supported"},
		{name: "a block of an unknown type is refused", blocks: []acpsdk.ContentBlock{{Text: &acpsdk.ContentBlockText{Type: "video"}}},
			wantErr: `prompt content of type "video" is not supported`},
		{name: "text resource: a fence headed by its URI",
			blocks:   []acpsdk.ContentBlock{textBlock("explain"), textResource("file:///x/a.go", "package a\n")},
			wantText: []string{"explain\n[resource uri=\"file:///x/a.go\"]\n```go\npackage a\n```\n"}},
		{name: "text resource too large is cut with a note",
			blocks:   []acpsdk.ContentBlock{textResource("untitled:1", bigText)},
			wantText: []string{"[truncated: the first 262144 of 262154 bytes are shown; the limit is 256 KiB]"},
			notText:  []string{bigText}},
		{name: "blob resource that is an image", blocks: []acpsdk.ContentBlock{blobResource("file:///x/shot.png", "image/png", png.Data)},
			want: []presentation.ContentBlock{png}},
		{name: "blob resource of another type is refused", blocks: []acpsdk.ContentBlock{blobResource("file:///x/a.pdf", "application/pdf", "JVBERg==")},
			wantErr: `embedded resource "file:///x/a.pdf" is binary (application/pdf): only text resources and images are supported`},
		{name: "link inside the workspace is read",
			blocks:   []acpsdk.ContentBlock{textBlock("fix"), acpsdk.ResourceLinkBlock("main.go", fileURI(filepath.Join(w.root, "main.go")))},
			wantText: []string{"fix\n[resource_link name=\"main.go\" uri=" + `"` + fileURI(filepath.Join(w.root, "main.go")) + `"]` + "\n```go\npackage main\n```\n"}},
		{name: "link outside the workspace stays a link",
			blocks:   []acpsdk.ContentBlock{acpsdk.ResourceLinkBlock("secret", fileURI(filepath.Join(w.outside, "secret.txt")))},
			wantText: []string{"\n[resource_link name=\"secret\" uri=\"" + fileURI(filepath.Join(w.outside, "secret.txt")) + "\"]\n"},
			notText:  []string{"secret\n```"}},
		{name: "link through a symbolic link out of the workspace stays a link",
			blocks:  []acpsdk.ContentBlock{acpsdk.ResourceLinkBlock("escape", fileURI(filepath.Join(w.root, "escape.txt")))},
			notText: []string{"secret\n", "```"}},
		{name: "link that is not a file stays a link",
			blocks:   []acpsdk.ContentBlock{acpsdk.ResourceLinkBlock("docs", "https://example.com/a.go")},
			wantText: []string{"\n[resource_link name=\"docs\" uri=\"https://example.com/a.go\"]\n"},
			notText:  []string{"```"}},
		{name: "link to a missing file gets a note",
			blocks:   []acpsdk.ContentBlock{acpsdk.ResourceLinkBlock("gone", fileURI(filepath.Join(w.root, "gone.go")))},
			wantText: []string{"[not included: no such file]"}},
		{name: "link to a binary file gets a note",
			blocks:   []acpsdk.ContentBlock{acpsdk.ResourceLinkBlock("bin", fileURI(filepath.Join(w.root, "bin.dat")))},
			wantText: []string{"[not included: a binary file]"}},
		{name: "link to a directory gets a note",
			blocks:   []acpsdk.ContentBlock{acpsdk.ResourceLinkBlock("ws", fileURI(w.root))},
			wantText: []string{"[not included: not a regular file]"}},
		{name: "linked file too large is cut with a note",
			blocks:   []acpsdk.ContentBlock{acpsdk.ResourceLinkBlock("big", fileURI(filepath.Join(w.root, "big.txt")))},
			wantText: []string{"0123456789abcde\n```\n[truncated: the first 262144 of 263744 bytes are shown; the limit is 256 KiB]"}},
		{name: "empty prompt", blocks: []acpsdk.ContentBlock{textBlock(" \n\t")}, wantErr: "empty prompt"},
		{name: "no blocks", blocks: nil, wantErr: "empty prompt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := reader.content(t.Context(), tt.blocks)
			if tt.wantErr != "" {
				wantInvalidParams(t, err, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != nil {
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("content = %#v\nwant %#v", got, tt.want)
				}
				return
			}
			text := singleText(t, got)
			for _, want := range tt.wantText {
				if !strings.Contains(text, want) {
					t.Errorf("content %q\ndoes not contain %q", shorten(text), want)
				}
			}
			for _, not := range tt.notText {
				if strings.Contains(text, not) {
					t.Errorf("content %q\ncontains %q", shorten(text), shorten(not))
				}
			}
			if len(text) > maxPromptText+1024 {
				t.Errorf("content has %d bytes, past the limit", len(text))
			}
		})
	}
}

// A reader without a session's roots and files reads nothing: a link
// inside any directory stays a link line.
func TestPromptContentWithoutFilesKeepsLinks(t *testing.T) {
	w := newPromptWorkspace(t)
	uri := fileURI(filepath.Join(w.root, "main.go"))
	got, err := promptReader{}.content(t.Context(), []acpsdk.ContentBlock{acpsdk.ResourceLinkBlock("main.go", uri)})
	if err != nil {
		t.Fatal(err)
	}
	if want := "\n[resource_link name=\"main.go\" uri=\"" + uri + "\"]\n"; singleText(t, got) != want {
		t.Errorf("content = %q, want %q", singleText(t, got), want)
	}
}

// A link is read through the editor when it offers reads, so unsaved
// text is what the model sees.
func TestPromptLinkReadsThroughTheEditor(t *testing.T) {
	w := newPromptWorkspace(t)
	client := &readingClient{text: "package main // unsaved\n"}
	reader := newPromptReader([]string{w.root}, EditorFiles{SessionID: "s1", Client: client, Read: true})
	path := filepath.Join(w.root, "main.go")
	got, err := reader.content(t.Context(), []acpsdk.ContentBlock{acpsdk.ResourceLinkBlock("main.go", fileURI(path))})
	if err != nil {
		t.Fatal(err)
	}
	if text := singleText(t, got); !strings.Contains(text, "```go\npackage main // unsaved\n```") {
		t.Errorf("content = %q, want the editor's text", text)
	}
	if want := []acpsdk.ReadTextFileRequest{{SessionId: "s1", Path: path}}; !reflect.DeepEqual(client.reads, want) {
		t.Errorf("editor reads = %v, want %v", client.reads, want)
	}
}

// readingClient answers fs/read_text_file with text and records the
// requests; it implements nothing else.
type readingClient struct {
	Client
	text  string
	reads []acpsdk.ReadTextFileRequest
}

func (c *readingClient) ReadTextFile(_ context.Context, req acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
	c.reads = append(c.reads, req)
	return acpsdk.ReadTextFileResponse{Content: c.text}, nil
}

func wantInvalidParams(t *testing.T, err error, part string) {
	t.Helper()
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.InvalidParams {
		t.Fatalf("error = %v, want a -32602 error", err)
	}
	if !strings.Contains(rpcErr.Message, part) {
		t.Errorf("error message %q does not contain %q", rpcErr.Message, part)
	}
}

func singleText(t *testing.T, blocks []presentation.ContentBlock) string {
	t.Helper()
	if len(blocks) != 1 {
		t.Fatalf("content = %#v, want one text block", blocks)
	}
	text, ok := blocks[0].(presentation.TextBlock)
	if !ok {
		t.Fatalf("content = %#v, want one text block", blocks)
	}
	return text.Text
}

func shorten(s string) string {
	if len(s) > 300 {
		return s[:150] + "…" + s[len(s)-150:]
	}
	return s
}

// BenchmarkPromptContent measures a prompt with a 1 MiB embedded text
// resource (cut to the limit) and a 1 MiB image (its base64 checked).
func BenchmarkPromptContent(b *testing.B) {
	text := strings.Repeat("0123456789abcde\n", 1<<16)
	img := base64.StdEncoding.EncodeToString(make([]byte, 1<<20))
	blocks := []acpsdk.ContentBlock{textBlock("look"), textResource("file:///x/a.txt", text), acpsdk.ImageBlock(img, "image/png")}
	reader := promptReader{}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reader.content(b.Context(), blocks); err != nil {
			b.Fatal(err)
		}
	}
}
