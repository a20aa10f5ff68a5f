package lsp

import (
	"context"
	"fmt"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
)

// The tool names, as the model sees them.
const (
	DiagnosticsName = "diagnostics"
	DefinitionName  = "definition"
	ReferencesName  = "references"
	SymbolsName     = "symbols"
)

// DiagnosticsArgs are the arguments of diagnostics.
type DiagnosticsArgs struct {
	Path string `json:"path,omitempty" jsonschema:"a file to check, absolute or relative to the working directory; omit it for every problem the running language servers know of"`
}

// SymbolsArgs are the arguments of symbols.
type SymbolsArgs struct {
	Query string `json:"query" jsonschema:"the symbol name or a part of it (language servers match it fuzzily)"`
}

// Tools returns the read-only language-server tools: diagnostics,
// definition, references and symbols, in that order. They share the
// Manager's servers; Close stops them.
func (m *Manager) Tools() []*registry.Tool {
	tools, err := m.defineTools()
	if err != nil {
		panic(fmt.Sprintf("lsp: the tool definitions are invalid: %v", err)) // a programming error, caught by the tests
	}
	return tools
}

// timeout is the pipeline's budget for one call: a server start, its
// load and a request, with room to spare, so a tool that gives up on a
// loading server says so before the pipeline's deadline.
func (m *Manager) timeout() time.Duration {
	return m.opts.StartTimeout + m.opts.LoadTimeout + max(m.opts.CallTimeout, m.opts.Settle) + m.opts.Settle
}

func (m *Manager) defineTools() ([]*registry.Tool, error) {
	diagnostics, err := registry.Define(registry.Spec[DiagnosticsArgs, Diagnostics]{
		Name: DiagnosticsName,
		Description: "List the errors and warnings the language server (gopls, tsserver, pyright, rust-analyzer, clangd) " +
			"reports: for one file (path), checked now, or for every file the running servers know of. " +
			"Lines and columns are 1-based; columns count characters.",
		Handler: func(ctx context.Context, _ *registry.Call, a DiagnosticsArgs) (Diagnostics, error) {
			if a.Path == "" {
				return m.workspaceDiagnostics(ctx), nil
			}
			return m.fileDiagnostics(ctx, a.Path)
		},
		Render:           renderDiagnostics,
		PresentationMeta: diagnosticsMeta,
		Timeout:          m.timeout(),
		Effect:           registry.EffectRead,
		Paths:            func(a DiagnosticsArgs) []string { return optional(a.Path) },
		ConcurrencySafe:  func(DiagnosticsArgs) bool { return true },
		PresentCall:      presentDiagnosticsCall,
		PresentResult:    presentDiagnosticsResult,
	})
	if err != nil {
		return nil, err
	}
	definition, err := m.positionTool(DefinitionName,
		"Find where a symbol is defined, with the language server: give the file, the 1-based line, and the symbol "+
			"(or the 1-based column). Answers path:line:column and the line's text.", m.definition)
	if err != nil {
		return nil, err
	}
	references, err := m.positionTool(ReferencesName,
		"Find every reference to a symbol in the workspace, its declaration included, with the language server: "+
			"give the file, the 1-based line, and the symbol (or the 1-based column).", m.references)
	if err != nil {
		return nil, err
	}
	symbols, err := registry.Define(registry.Spec[SymbolsArgs, Locations]{
		Name: SymbolsName,
		Description: "Search the workspace's symbols (functions, types, methods, variables) by name with the " +
			"language server. Answers each symbol's kind, name and path:line:column.",
		Handler: func(ctx context.Context, _ *registry.Call, a SymbolsArgs) (Locations, error) {
			return m.symbols(ctx, a.Query)
		},
		Render:           renderLocations[SymbolsArgs],
		PresentationMeta: locationsMeta[SymbolsArgs],
		Timeout:          m.timeout(),
		Effect:           registry.EffectRead,
		ConcurrencySafe:  func(SymbolsArgs) bool { return true },
		PresentCall:      presentSymbolsCall,
		PresentResult:    presentSymbolsResult,
	})
	if err != nil {
		return nil, err
	}
	return []*registry.Tool{diagnostics, definition, references, symbols}, nil
}

// positionTool defines a tool that asks about the symbol at a position.
func (m *Manager) positionTool(name, description string, ask func(context.Context, PositionArgs) (Locations, error)) (*registry.Tool, error) {
	return registry.Define(registry.Spec[PositionArgs, Locations]{
		Name:        name,
		Description: description,
		Handler: func(ctx context.Context, _ *registry.Call, a PositionArgs) (Locations, error) {
			if a.FilePath == "" {
				return Locations{}, fmt.Errorf("file_path must not be empty")
			}
			return ask(ctx, a)
		},
		Render:           renderLocations[PositionArgs],
		PresentationMeta: locationsMeta[PositionArgs],
		Timeout:          m.timeout(),
		Effect:           registry.EffectRead,
		Paths:            func(a PositionArgs) []string { return []string{a.FilePath} },
		ConcurrencySafe:  func(PositionArgs) bool { return true },
		PresentCall:      presentPositionCall(name),
		PresentResult:    presentPositionResult(name),
	})
}

// optional is a list holding path, or none when it is empty.
func optional(path string) []string {
	if path == "" {
		return nil
	}
	return []string{path}
}
