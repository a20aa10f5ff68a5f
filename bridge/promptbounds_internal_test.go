package bridge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/workspace"
)

// countingFiles is the disk, counting the reads of each file.
type countingFiles struct {
	workspace.Local
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingFiles) ReadFile(ctx context.Context, name string) ([]byte, error) {
	c.mu.Lock()
	if c.reads == nil {
		c.reads = map[string]int{}
	}
	c.reads[name]++
	c.mu.Unlock()
	return c.Local.ReadFile(ctx, name)
}

func (c *countingFiles) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, r := range c.reads {
		n += r
	}
	return n
}

var _ FileSystem = (*countingFiles)(nil)

// TestPromptEmbedsEachResourceOnce: a file linked ten times — and once
// more through a link to it inside the workspace — is read once and
// embedded once; a repeat says so, and so does a repeat of a link that
// could not be read. A text resource embedded twice is embedded once.
func TestPromptEmbedsEachResourceOnce(t *testing.T) {
	w := newPromptWorkspace(t)
	if err := os.Symlink("main.go", filepath.Join(w.root, "alias.go")); err != nil {
		t.Fatal(err)
	}
	files := &countingFiles{}
	reader := newPromptReader([]string{w.root}, files)
	var blocks []acpsdk.ContentBlock
	for range 10 {
		blocks = append(blocks, acpsdk.ResourceLinkBlock("main.go", fileURI(filepath.Join(w.root, "main.go"))))
	}
	blocks = append(blocks,
		acpsdk.ResourceLinkBlock("alias.go", fileURI(filepath.Join(w.root, "alias.go"))),
		acpsdk.ResourceLinkBlock("gone", fileURI(filepath.Join(w.root, "gone.go"))),
		acpsdk.ResourceLinkBlock("gone", fileURI(filepath.Join(w.root, "gone.go"))),
		textResource("untitled:1", "scratch text\n"),
		textResource("untitled:1", "scratch text\n"),
		textResource("untitled:1", "other text\n"),
	)
	got, err := reader.content(t.Context(), blocks)
	if err != nil {
		t.Fatal(err)
	}
	text := singleText(t, got)
	if n := files.total(); n != 2 {
		t.Errorf("%d reads (%v), want one of main.go and one of gone.go", n, files.reads)
	}
	for what, want := range map[string]int{
		"package main\n":                  1,
		"[included once above]\n":         11,
		"[resource_link name=\"main.go\"": 10,
		"[not included: no such file]\n":  2,
		"scratch text\n":                  1,
		"other text\n":                    1,
	} {
		if n := strings.Count(text, what); n != want {
			t.Errorf("%q appears %d times, want %d:\n%s", what, n, want, shorten(text))
		}
	}
}

// TestPromptEmbeddedTextIsCappedInAll: forty resources of 256 KiB each
// bring 4 MiB to the model, not 10: the first sixteen whole, the others
// left out with a note — linked files past the limit are not even read.
func TestPromptEmbeddedTextIsCappedInAll(t *testing.T) {
	const n = 40
	whole := maxPromptEmbedded / maxPromptText
	w := newPromptWorkspace(t)
	body := func(i int) string { return fmt.Sprintf("%02d", i) + strings.Repeat("Q", maxPromptText-3) + "\n" }
	var links, resources []acpsdk.ContentBlock
	for i := range n {
		name := filepath.Join(w.root, fmt.Sprintf("f%02d.txt", i))
		if err := os.WriteFile(name, []byte(body(i)), 0o644); err != nil {
			t.Fatal(err)
		}
		links = append(links, acpsdk.ResourceLinkBlock(filepath.Base(name), fileURI(name)))
		resources = append(resources, textResource(fmt.Sprintf("untitled:%d", i), body(i)))
	}
	tests := []struct {
		name      string
		blocks    []acpsdk.ContentBlock
		wantReads int
		// wantCut is the note of a resource the limit cut, if one is.
		wantCut string
	}{
		{name: "linked files", blocks: links, wantReads: whole},
		{name: "embedded resources", blocks: resources, wantReads: 0},
		{name: "a cut resource counts what it kept", blocks: append([]acpsdk.ContentBlock{textResource("untitled:big", strings.Repeat("Z", 2*maxPromptText))}, resources...),
			wantCut: "; the limit is 256 KiB]"},
		{name: "the resource that reaches the limit is cut", blocks: append([]acpsdk.ContentBlock{textResource("untitled:small", strings.Repeat("Z", 100<<10))}, links...),
			wantReads: whole, wantCut: fmt.Sprintf("[truncated: the first %d of %d bytes are shown; a prompt's resources embed at most 4 MiB of text]", maxPromptText-100<<10, maxPromptText)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := &countingFiles{}
			reader := newPromptReader([]string{w.root}, files)
			got, err := reader.content(t.Context(), tt.blocks)
			if err != nil {
				t.Fatal(err)
			}
			text := singleText(t, got)
			if r := files.total(); r != tt.wantReads {
				t.Errorf("%d files read, want %d", r, tt.wantReads)
			}
			embedded := strings.Count(text, "Q") + strings.Count(text, "Z") // close to the bytes embedded: Q and Z appear nowhere else
			if embedded > maxPromptEmbedded || embedded < maxPromptEmbedded-3*n {
				t.Errorf("%d bytes embedded, want at most %d and near it", embedded, maxPromptEmbedded)
			}
			if len(text) > maxPromptEmbedded+64<<10 {
				t.Errorf("the prompt has %d bytes", len(text))
			}
			note := "[not included: this prompt's resources embed 4 MiB of text already, the most one prompt may]\n"
			if c := strings.Count(text, note); c < n-whole {
				t.Errorf("the note appears %d times, want one per resource left out (%d or more)", c, n-whole)
			}
			if tt.wantCut != "" && !strings.Contains(text, tt.wantCut) {
				t.Errorf("no note %q", tt.wantCut)
			}
			if !strings.Contains(text, body(0)) {
				t.Error("the first resource is not embedded whole")
			}
			if strings.Contains(text, body(n - 1)[:8]) {
				t.Error("the last resource is embedded")
			}
		})
	}
}
