package lsp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// maxLocations bounds the locations one answer lists.
const maxLocations = 200

// Locations is the value of definition, references and symbols. Note,
// when set, says why there are no answers (no server for the file, say).
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

// atPosition opens args' file, resolves its position and runs ask.
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
	ctx, cancel := context.WithTimeout(ctx, m.opts.CallTimeout)
	defer cancel()
	at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(f.abs)}, Position: pos}
	locs, err := ask(ctx, srv, at)
	if err != nil {
		return Locations{}, m.requestError(ctx, srv, err)
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

// symbols searches the workspace's symbols in every running server,
// starting the servers the workspace's files call for when none runs.
func (m *Manager) symbols(ctx context.Context, query string) (Locations, error) {
	servers := m.running()
	if len(servers) == 0 {
		servers = m.startForWorkspace(ctx)
	}
	if len(servers) == 0 {
		return Locations{Locations: []Location{}, Note: "no language server runs for this workspace: read or edit a source file first, or install one for its language"}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.CallTimeout)
	defer cancel()
	out := []Location{}
	total := 0
	for _, srv := range servers {
		res, err := srv.remote.Symbols(ctx, &protocol.WorkspaceSymbolParams{Query: query})
		if err != nil {
			return Locations{}, m.requestError(ctx, srv, err)
		}
		t := m.newTexts(ctx, srv)
		add := func(name string, kind protocol.SymbolKind, container *string, u uri.URI, p protocol.Position) {
			total++
			if len(out) == maxLocations {
				return
			}
			l := m.location(t, u, p)
			l.Name = symbolName(name, kind, container)
			out = append(out, l)
		}
		switch r := res.(type) {
		case protocol.SymbolInformationSlice:
			for _, s := range r {
				add(s.Name, s.Kind, s.ContainerName, s.Location.URI, s.Location.Range.Start)
			}
		case protocol.WorkspaceSymbolSlice:
			for _, s := range r {
				switch l := s.Location.(type) {
				case *protocol.Location:
					add(s.Name, s.Kind, s.ContainerName, l.URI, l.Range.Start)
				case *protocol.LocationUriOnly:
					add(s.Name, s.Kind, s.ContainerName, l.URI, protocol.Position{})
				}
			}
		}
	}
	return Locations{Locations: out, Total: total}, nil
}

// startForWorkspace starts, for each root, the servers whose file types
// occur near its top (a bounded walk), and returns those that came up.
func (m *Manager) startForWorkspace(ctx context.Context) []*server {
	var out []*server
	for _, root := range m.opts.Roots {
		for _, path := range m.sampleFiles(root) {
			if srv, _ := m.serverFor(ctx, path, true); srv != nil {
				out = append(out, srv)
			}
		}
	}
	return out
}

// sampleFiles returns one file per configured server found in the first
// few thousand entries under root, hidden directories skipped.
func (m *Manager) sampleFiles(root string) []string {
	const budget = 5000
	seen := map[string]bool{}
	var out []string
	n := 0
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		n++
		switch {
		case err != nil:
			return nil
		case n > budget:
			return filepath.SkipAll
		case d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules"):
			return filepath.SkipDir
		case d.IsDir():
			return nil
		}
		if cfg, ok := m.configFor(path); ok && !seen[cfg.Name] {
			seen[cfg.Name] = true
			out = append(out, path)
		}
		return nil
	})
	return out
}

// requestError explains a failed request: a server that stopped, one
// that did not answer in time, or the server's own error.
func (m *Manager) requestError(ctx context.Context, srv *server, err error) error {
	switch {
	case !srv.alive():
		return fmt.Errorf("%s stopped while answering%s; it will be restarted once on the next use: %w", srv.cfg.Name, stderrTail(srv.proc), errStopped)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s did not answer within %s: %w", srv.cfg.Name, m.opts.CallTimeout, err)
	default:
		return fmt.Errorf("%s: %w", srv.cfg.Name, err)
	}
}

// symbolName describes a symbol: "function Define in registry".
func symbolName(name string, kind protocol.SymbolKind, container *string) string {
	s := name
	if k := kindName(kind); k != "" {
		s = k + " " + s
	}
	if container != nil && *container != "" {
		s += " in " + *container
	}
	return s
}

// kindName is a symbol kind in words, "" for kinds without one.
func kindName(k protocol.SymbolKind) string {
	names := [...]string{"", "file", "module", "namespace", "package", "class", "method", "property", "field",
		"constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean",
		"array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"}
	if int(k) < len(names) {
		return names[k]
	}
	return ""
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
