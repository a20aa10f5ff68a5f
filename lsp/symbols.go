package lsp

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// symbols searches the workspace's symbols in every running server,
// starting the servers the workspace's files call for when none runs.
// The servers are asked at once, each with patience while it loads
// (request); one still loading when its patience runs out adds a note
// and leaves the others' answers.
func (m *Manager) symbols(ctx context.Context, query string) (Locations, error) {
	servers := m.running()
	if len(servers) == 0 {
		servers = m.startForWorkspace(ctx)
	}
	if len(servers) == 0 {
		return Locations{Locations: []Location{}, Note: "no language server runs for this workspace: read or edit a source file first, or install one for its language"}, nil
	}
	answers := make([][]symbol, len(servers))
	errs := make([]error, len(servers))
	var wg sync.WaitGroup
	for i, srv := range servers {
		wg.Go(func() {
			answers[i], errs[i] = request(ctx, m, srv, func(ctx context.Context) ([]symbol, error) {
				return workspaceSymbols(ctx, srv, query)
			})
		})
	}
	wg.Wait()
	out := Locations{Locations: []Location{}}
	var notes []string
	for i, srv := range servers {
		if loading := (*loadingError)(nil); errors.As(errs[i], &loading) {
			notes = append(notes, loading.Error())
			continue
		}
		if errs[i] != nil {
			return Locations{}, errs[i]
		}
		t := m.newTexts(ctx, srv)
		for _, s := range answers[i] {
			out.Total++
			if len(out.Locations) == maxLocations {
				continue
			}
			l := m.location(t, s.uri, s.at)
			l.Name = symbolName(s.name, s.kind, s.container)
			out.Locations = append(out.Locations, l)
		}
	}
	out.Note = strings.Join(notes, "; ")
	return out, nil
}

// symbol is one answer of workspace/symbol.
type symbol struct {
	name      string
	kind      protocol.SymbolKind
	container *string
	uri       uri.URI
	at        protocol.Position
}

// workspaceSymbols asks srv for the workspace's symbols matching query.
func workspaceSymbols(ctx context.Context, srv *server, query string) ([]symbol, error) {
	res, err := srv.remote.Symbols(ctx, &protocol.WorkspaceSymbolParams{Query: query})
	if err != nil {
		return nil, err
	}
	var out []symbol
	switch r := res.(type) {
	case protocol.SymbolInformationSlice:
		for _, s := range r {
			out = append(out, symbol{s.Name, s.Kind, s.ContainerName, s.Location.URI, s.Location.Range.Start})
		}
	case protocol.WorkspaceSymbolSlice:
		for _, s := range r {
			switch l := s.Location.(type) {
			case *protocol.Location:
				out = append(out, symbol{s.Name, s.Kind, s.ContainerName, l.URI, l.Range.Start})
			case *protocol.LocationUriOnly:
				out = append(out, symbol{s.Name, s.Kind, s.ContainerName, l.URI, protocol.Position{}})
			}
		}
	}
	return out, nil
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
