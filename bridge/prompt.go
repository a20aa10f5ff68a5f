package bridge

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// Limits on what a prompt's embedded resources and linked files bring to
// the model.
const (
	// maxPromptText is how much of one text resource or linked file the
	// model is given: 256 KiB. Past it the text is cut, at a line end when
	// one is near, and a note says how much was left out.
	maxPromptText = 256 << 10
	// maxPromptEmbedded is how much text one prompt's resources and
	// linked files bring in all: 4 MiB. The resource that reaches it is
	// cut, those after it are left out — a linked file is then not read —
	// and a note says so for each.
	maxPromptEmbedded = 4 << 20
	// maxLinkedFile is the largest linked file read at all (16 MiB); a
	// larger one stays a link, with a note.
	maxLinkedFile = 16 << 20
)

// promptReader turns one session's prompts into the user's message,
// reading the files that resource links name inside the session's roots.
type promptReader struct {
	// roots are the session's workspace roots, symbolic links resolved; a
	// link to a file outside them is not read.
	roots []string
	// files reads linked files: through the editor when it offers reads,
	// from the disk otherwise. Nil reads nothing.
	files FileSystem
}

// newPromptReader returns the prompt reader of a session with the given
// roots and file access: files is the editor's (EditorFiles), or nil for
// the disk.
func newPromptReader(roots []string, files FileSystem) promptReader {
	if files == nil {
		files = workspace.Local{}
	}
	resolved := make([]string, len(roots))
	for i, root := range roots {
		resolved[i] = filepath.Clean(root)
	}
	return promptReader{roots: resolved, files: files}
}

// content turns a prompt into the user's message. Text is kept as it is;
// images stay images; an embedded text resource becomes a fenced block
// headed by its URI, an embedded image an image; a resource link to a
// file inside the workspace becomes the link line followed by the file's
// text, any other link the link line alone. A file linked more than once
// is read and embedded once, and so is a resource embedded twice. Text
// longer than maxPromptText is cut with a note, and so is what passes
// maxPromptEmbedded in all. Audio, embedded binary resources that
// are not images and blocks of unknown types are refused (-32602) rather
// than silently dropped, and so is a prompt with neither text nor image.
func (r promptReader) content(ctx context.Context, blocks []acp.PromptContent) ([]presentation.ContentBlock, error) {
	var p promptBuilder
	for _, block := range blocks {
		switch {
		// The SDK decodes a block of a type it does not know as a text
		// block carrying that type: refuse it like any other.
		case block.Text != nil && (block.Text.Type == "" || block.Text.Type == "text"):
			p.text(block.Text.Text)
		case block.Text != nil:
			return nil, acp.InvalidParams("prompt content of type %q is not supported", block.Text.Type)
		case block.Image != nil:
			img, err := imageBlock(block.Image.MimeType, block.Image.Data)
			if err != nil {
				return nil, acp.InvalidParams("image prompt content: %v", err)
			}
			p.image(img)
		case block.Audio != nil:
			return nil, acp.InvalidParams("audio prompt content (%s) is not supported: the agent does not advertise promptCapabilities.audio", block.Audio.MimeType)
		case block.Resource != nil:
			if err := p.resource(block.Resource.Resource); err != nil {
				return nil, err
			}
		case block.ResourceLink != nil:
			p.text(r.link(ctx, &p, block.ResourceLink))
		default:
			return nil, acp.InvalidParams("prompt content block of an unknown type is not supported")
		}
	}
	return p.finish()
}

// promptBuilder collects a prompt's blocks, merging adjacent text, and
// keeps the account of the text its resources embed.
type promptBuilder struct {
	blocks  []presentation.ContentBlock
	pending strings.Builder // text not yet in blocks
	images  bool

	embedded int                 // bytes of resource text embedded so far
	seen     map[embedKey]string // the resources met so far, with what a repeat shows
}

func (p *promptBuilder) text(s string) { p.pending.WriteString(s) }

func (p *promptBuilder) image(img presentation.ImageBlock) {
	p.flush()
	p.blocks = append(p.blocks, img)
	p.images = true
}

func (p *promptBuilder) flush() {
	if p.pending.Len() > 0 {
		p.blocks = append(p.blocks, presentation.Text(p.pending.String()))
		p.pending.Reset()
	}
}

// resource adds an embedded resource: text as a fenced block headed by
// its URI, an image blob as an image; any other blob is refused.
func (p *promptBuilder) resource(res acp.EmbeddedResourceResource) error {
	switch {
	case res.TextResourceContents != nil:
		t := res.TextResourceContents
		head := "\n[resource uri=" + strconv.Quote(t.Uri) + "]\n"
		if note, ok := p.admit(embedKey{uri: t.Uri, text: t.Text}); !ok {
			p.text(head + note)
			return nil
		}
		p.text(head + p.embed(t.Text, t.Uri, int64(len(t.Text))) + "\n")
		return nil
	case res.BlobResourceContents != nil:
		b := res.BlobResourceContents
		mime := ""
		if b.MimeType != nil {
			mime = *b.MimeType
		}
		if !strings.HasPrefix(mime, "image/") {
			if mime == "" {
				mime = "no MIME type"
			}
			return acp.InvalidParams("embedded resource %q is binary (%s): only text resources and images are supported", b.Uri, mime)
		}
		img, err := imageBlock(mime, b.Blob)
		if err != nil {
			return acp.InvalidParams("embedded resource %q: %v", b.Uri, err)
		}
		p.image(img)
		return nil
	default:
		return acp.InvalidParams("embedded resource with neither text nor blob")
	}
}

// finish returns the blocks, or -32602 when the prompt holds neither
// text nor image.
func (p *promptBuilder) finish() ([]presentation.ContentBlock, error) {
	p.flush()
	if !p.images && strings.TrimSpace(presentation.JoinText(p.blocks)) == "" {
		return nil, acp.InvalidParams("empty prompt")
	}
	return p.blocks, nil
}

// imageBlock checks an image's MIME type and base64 data.
func imageBlock(mime, data string) (presentation.ImageBlock, error) {
	if !strings.HasPrefix(mime, "image/") {
		return presentation.ImageBlock{}, fmt.Errorf("mimeType %q is not an image type", mime)
	}
	if data == "" {
		return presentation.ImageBlock{}, errors.New("the image has no data")
	}
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		return presentation.ImageBlock{}, fmt.Errorf("the image data is not base64: %w", err)
	}
	return presentation.ImageBlock{MimeType: mime, Data: data}, nil
}

// link is the text a resource link becomes: its link line, followed by
// the file's text when it names a file inside the workspace, or by a note
// saying why that file could not be read or was not included.
func (r promptReader) link(ctx context.Context, p *promptBuilder, l *acp.PromptResourceLink) string {
	line := "\n[resource_link name=" + strconv.Quote(l.Name) + " uri=" + strconv.Quote(l.Uri) + "]\n"
	file, real, ok := r.linkedFile(l.Uri)
	if !ok {
		return line
	}
	key := embedKey{file: real}
	if note, ok := p.admit(key); !ok {
		return line + note
	}
	text, size, err := r.readText(ctx, file)
	if err != nil {
		note := "[not included: " + err.Error() + "]\n"
		p.met(key, note)
		return line + note
	}
	return line + p.embed(text, l.Uri, size) + "\n"
}

// linkedFile returns the path of a file:// URI inside the workspace, and
// that path with its links resolved; ok is false for other URIs and for
// paths outside every root.
func (r promptReader) linkedFile(uri string) (file, real string, ok bool) {
	if r.files == nil || len(r.roots) == 0 {
		return "", "", false
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return "", "", false
	}
	p := filepath.FromSlash(u.Path)
	if !filepath.IsAbs(p) {
		return "", "", false
	}
	p = filepath.Clean(p)
	if real, ok = workspace.Locate(p, r.roots...); ok {
		return p, real, true
	}
	return "", "", false
}

// readText reads a linked file as text, cut to maxPromptText, and returns
// its whole size. Files that are not regular, larger than maxLinkedFile
// or not text are not read.
func (r promptReader) readText(ctx context.Context, file string) (text string, size int64, err error) {
	info, err := r.files.Stat(ctx, file)
	switch {
	case err == nil && !info.Mode().IsRegular():
		return "", 0, errors.New("not a regular file")
	case err == nil && info.Size() > maxLinkedFile:
		return "", 0, fmt.Errorf("the file has %d bytes, more than the %d MiB a linked file may have", info.Size(), maxLinkedFile>>20)
	}
	data, err := r.files.ReadFile(ctx, file)
	if err != nil {
		return "", 0, readError(err)
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return "", 0, errors.New("a binary file")
	}
	return string(data), int64(len(data)), nil
}

// readError says briefly why a linked file could not be read.
func readError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	default:
		return err
	}
}

// embedKey names what a resource embeds: a linked file by its real path,
// an embedded resource by its URI and text.
type embedKey struct {
	file      string
	uri, text string
}

// admit reports whether a resource is to be embedded; when it is not —
// it was embedded already, or the prompt's embedded text reached
// maxPromptEmbedded — it returns the note that says so instead.
func (p *promptBuilder) admit(key embedKey) (note string, ok bool) {
	if note, ok := p.seen[key]; ok {
		return note, false
	}
	if p.embedded >= maxPromptEmbedded {
		return fmt.Sprintf("[not included: this prompt's resources embed %d MiB of text already, the most one prompt may]\n", maxPromptEmbedded>>20), false
	}
	p.met(key, "[included once above]\n")
	return "", true
}

// met records what a repeat of the resource key shows.
func (p *promptBuilder) met(key embedKey, repeat string) {
	if p.seen == nil {
		p.seen = map[embedKey]string{}
	}
	p.seen[key] = repeat
}

// embed shows text from uri in a fence tagged with the URI's file
// extension, cut to maxPromptText and to what is left of
// maxPromptEmbedded, and counts it against the latter. A cut text is
// followed by a note that gives the limit and size, the whole text's size.
func (p *promptBuilder) embed(text, uri string, size int64) string {
	lang := strings.TrimPrefix(path.Ext(uriPath(uri)), ".")
	limit, why := maxPromptText, fmt.Sprintf("the limit is %d KiB", maxPromptText>>10)
	if left := maxPromptEmbedded - p.embedded; left < limit {
		limit, why = left, fmt.Sprintf("a prompt's resources embed at most %d MiB of text", maxPromptEmbedded>>20)
	}
	if len(text) <= limit {
		p.embedded += len(text)
		return codeFence(text, lang)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	if nl := strings.LastIndexByte(text[:cut], '\n'); nl >= limit*3/4 {
		cut = nl + 1
	}
	p.embedded += cut
	return codeFence(text[:cut], lang) + fmt.Sprintf("\n[truncated: the first %d of %d bytes are shown; %s]", cut, size, why)
}

// uriPath is the path of uri, or uri itself when it does not parse.
func uriPath(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Path != "" {
		return u.Path
	}
	return uri
}

// stopReason maps a turn's end to the protocol's stop reason.
func stopReason(r session.StopReason) acp.StopReason {
	switch r {
	case session.StopMaxTokens:
		return acp.StopReasonMaxTokens
	case session.StopMaxTurnRequests:
		return acp.StopReasonMaxTurnRequests
	case session.StopRefusal:
		return acp.StopReasonRefusal
	case session.StopCancelled:
		return acp.StopReasonCancelled
	default:
		return acp.StopReasonEndTurn
	}
}
