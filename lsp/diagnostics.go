package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
)

// Diagnostic is one problem a language server reports, as the
// diagnostics tool lists it: 1-based line, column counted in characters.
type Diagnostic struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Source   string `json:"source,omitempty"`
}

// Diagnostics is the value of the diagnostics tool.
type Diagnostics struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Total       int          `json:"total"`
	Note        string       `json:"note,omitempty"`
}

// fileDiagnostics syncs path with its server and returns its errors and
// warnings, waiting for them at most Options.Settle of the server's idle
// time (and Options.LoadTimeout while it loads).
func (m *Manager) fileDiagnostics(ctx context.Context, path string) (Diagnostics, error) {
	f, reason, err := m.opened(ctx, path)
	if err != nil || f.srv == nil {
		return Diagnostics{Diagnostics: []Diagnostic{}, Note: reason}, err
	}
	wctx, stop := f.srv.patient(ctx, m.opts.Settle, m.opts.LoadTimeout)
	defer stop()
	diags, ok := f.srv.diagnostics(wctx, f.abs, f.version, f.since)
	out := m.diagnosticsOf(m.newTexts(ctx, f.srv), map[string][]protocol.Diagnostic{f.abs: diags})
	switch loading := stillLoading(wctx); {
	case ok:
	case loading != nil:
		out.Note = loading.Error() + "; the diagnostics listed may be stale"
	default:
		out.Note = f.srv.cfg.Name + " gave no diagnostics for this version of the file within " + m.opts.Settle.String() + "; these may be stale"
	}
	return out, nil
}

// workspaceDiagnostics returns the errors and warnings every running
// server has published, for all files; a note names the servers still
// loading, whose lists may be incomplete.
func (m *Manager) workspaceDiagnostics(ctx context.Context) Diagnostics {
	servers := m.running()
	if len(servers) == 0 {
		return Diagnostics{Diagnostics: []Diagnostic{}, Note: "no language server runs yet: pass a path to check a file (that starts its server)"}
	}
	out := Diagnostics{Diagnostics: []Diagnostic{}}
	var loading []string
	for _, srv := range servers {
		d := m.diagnosticsOf(m.newTexts(ctx, srv), srv.diags.all())
		out.Diagnostics = append(out.Diagnostics, d.Diagnostics...)
		out.Total += d.Total
		if doing, _ := srv.work.state(); doing != "" {
			loading = append(loading, fmt.Sprintf("%s is still loading (%s), so its list may be incomplete", srv.cfg.Name, doing))
		}
	}
	out.Note = strings.Join(loading, "; ")
	return out
}

// diagnosticsOf lists the errors and warnings of files, by path, at most
// maxLocations of them.
func (m *Manager) diagnosticsOf(t *texts, files map[string][]protocol.Diagnostic) Diagnostics {
	out := Diagnostics{Diagnostics: []Diagnostic{}}
	for _, path := range sortedPaths(files) {
		for _, d := range files[path] {
			sev := severityName(d.Severity)
			if sev == "" {
				continue
			}
			out.Total++
			if len(out.Diagnostics) == maxLocations {
				continue
			}
			l := m.location(t, uriOf(path), d.Range.Start)
			src, _ := d.Source.Get()
			out.Diagnostics = append(out.Diagnostics, Diagnostic{
				Path: l.Path, Line: l.Line, Column: l.Column, Severity: sev, Source: src,
				Message: strings.ReplaceAll(strings.TrimSpace(messageOf(d)), "\n", " "),
			})
		}
	}
	return out
}

// severityName is "error" or "warning"; other severities are "" (not
// listed).
func severityName(s protocol.DiagnosticSeverity) string {
	switch s {
	case protocol.DiagnosticSeverityError, 0:
		return "error"
	case protocol.DiagnosticSeverityWarning:
		return "warning"
	default:
		return ""
	}
}
