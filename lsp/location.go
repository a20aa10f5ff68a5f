package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Location is a place in a file as the tools report it: Path as messages
// show it (relative to the first root when below it), 1-based Line, and
// 1-based Column counted in characters; Text is the line's text, trimmed.
type Location struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Text   string `json:"text,omitempty"`
	// Name describes a symbol ("function Define in registry"), for symbols.
	Name string `json:"name,omitempty"`
}

// texts reads the files locations point into, once each per call: the
// text a server holds for an open file, else Options.ReadFile's.
type texts struct {
	ctx   context.Context
	srv   *server
	read  func(ctx context.Context, path string) ([]byte, error)
	files map[string]string
}

func (m *Manager) newTexts(ctx context.Context, srv *server) *texts {
	return &texts{ctx: ctx, srv: srv, read: m.opts.ReadFile, files: map[string]string{}}
}

// of returns path's text, "" when it cannot be read.
func (t *texts) of(path string) string {
	if text, ok := t.files[path]; ok {
		return text
	}
	text, open := t.srv.text(path)
	if !open {
		if data, err := t.read(t.ctx, path); err == nil {
			text = string(data)
		}
	}
	t.files[path] = text
	return text
}

// location converts an LSP location to the tools' form.
func (m *Manager) location(t *texts, u uri.URI, p protocol.Position) Location {
	path := u.FsPath()
	line, _ := lineText(t.of(path), int(p.Line))
	return Location{
		Path:   m.display(path),
		Line:   int(p.Line) + 1,
		Column: charColumn(line, p.Character) + 1,
		Text:   strings.TrimSpace(line),
	}
}

// uriOf is the file URI of an absolute path.
func uriOf(path string) uri.URI { return uri.File(path) }
