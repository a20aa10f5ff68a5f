package lsp

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// maxLocations bounds the locations one answer lists.
const maxLocations = 200

// Locations is the value of definition, references and symbols. Note,
// when set, says why there are no answers, or not all of them: no server
// for the file, or a server still loading when the tool gave up on it.
type Locations struct {
	Locations []Location `json:"locations"`
	Total     int        `json:"total"`
	Note      string     `json:"note,omitempty"`
}

// openFile is a file open on its server, synced with the disk.
type openFile struct {
	srv     *server
	abs     string
	text    string
	version int32  // the document version the server has
	since   uint64 // the file's last publication before the sync
}

// opened returns path's server with the file open on it, synced with its
// text on disk. A missing server gives a nil server and the reason.
func (m *Manager) opened(ctx context.Context, path string) (openFile, string, error) {
	abs := m.abs(path)
	srv, reason := m.serverFor(ctx, abs, true)
	if srv == nil {
		if reason == "" {
			reason = fmt.Sprintf("no language server is configured for %s", m.display(abs))
		}
		return openFile{}, reason, nil
	}
	data, err := m.opts.ReadFile(ctx, abs)
	if err != nil {
		return openFile{}, "", fmt.Errorf("read %s: %w", m.display(abs), err)
	}
	f := openFile{srv: srv, abs: abs, text: string(data)}
	if f.version, f.since, err = srv.sync(ctx, abs, f.text, false); err != nil {
		return openFile{}, "", err
	}
	return f, "", nil
}

// definition asks where the symbol at args is defined.
func (m *Manager) definition(ctx context.Context, args PositionArgs) (Locations, error) {
	return m.atPosition(ctx, args, func(ctx context.Context, srv *server, at protocol.TextDocumentPositionParams) ([]protocol.Location, error) {
		res, err := srv.remote.Definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: at})
		if err != nil {
			return nil, err
		}
		switch r := res.(type) {
		case *protocol.Location:
			return []protocol.Location{*r}, nil
		case protocol.LocationSlice:
			return r, nil
		case protocol.DefinitionLinkSlice:
			out := make([]protocol.Location, len(r))
			for i, l := range r {
				out[i] = protocol.Location{URI: l.TargetURI, Range: l.TargetSelectionRange}
			}
			return out, nil
		default:
			return nil, nil
		}
	})
}

// references asks where the symbol at args is used, its declaration
// included.
func (m *Manager) references(ctx context.Context, args PositionArgs) (Locations, error) {
	return m.atPosition(ctx, args, func(ctx context.Context, srv *server, at protocol.TextDocumentPositionParams) ([]protocol.Location, error) {
		return srv.remote.References(ctx, &protocol.ReferenceParams{
			TextDocumentPositionParams: at, Context: protocol.ReferenceContext{IncludeDeclaration: true},
		})
	})
}

// atPosition opens args' file, resolves its position and runs ask, with
// patience for a server still loading (request).
func (m *Manager) atPosition(ctx context.Context, args PositionArgs,
	ask func(context.Context, *server, protocol.TextDocumentPositionParams) ([]protocol.Location, error),
) (Locations, error) {
	f, reason, err := m.opened(ctx, args.FilePath)
	if err != nil || f.srv == nil {
		return Locations{Locations: []Location{}, Note: reason}, err
	}
	srv := f.srv
	pos, err := args.position(f.text)
	if err != nil {
		return Locations{}, err
	}
	at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(f.abs)}, Position: pos}
	locs, err := request(ctx, m, srv, func(ctx context.Context) ([]protocol.Location, error) { return ask(ctx, srv, at) })
	if loading := (*loadingError)(nil); errors.As(err, &loading) {
		return Locations{Locations: []Location{}, Note: loading.Error()}, nil
	}
	if err != nil {
		return Locations{}, err
	}
	t := m.newTexts(ctx, srv)
	out := make([]Location, 0, min(len(locs), maxLocations))
	for _, l := range locs {
		if len(out) == maxLocations {
			break
		}
		out = append(out, m.location(t, l.URI, l.Range.Start))
	}
	sortLocations(out)
	return Locations{Locations: out, Total: len(locs)}, nil
}

// sortLocations orders locations by path, line and column.
func sortLocations(locs []Location) {
	sort.SliceStable(locs, func(i, j int) bool {
		a, b := locs[i], locs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}
