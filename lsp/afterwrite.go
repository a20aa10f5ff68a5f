package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/dsh-acp/dsh-acp/workspace"
)

// maxReported bounds the diagnostics one message lists.
const maxReported = 20

// AfterWrite tells path's language server that the file now holds text
// (didOpen or didChange, then didSave), waits for the file's diagnostics
// (pulled when the server supports it, else the next publication for this
// version), and returns the errors that were not
// there before the write, one "path:line:col: message" line each under a
// header. The whole call waits at most Options.Settle, the server's start
// included: a server that is still starting (or never answers initialize)
// goes on starting in the background and the write gets no diagnostics.
// It returns "" when there is no server for the file (yet) or no new
// error, and a one-line note when the server is missing or failed (each
// note once per session). It never fails.
func (m *Manager) AfterWrite(ctx context.Context, path, text string) string {
	abs := m.abs(path)
	// One budget for the whole wait, whatever state the server is in: a
	// server still starting (or never answering initialize) goes on
	// starting in the background, and the write returns.
	budget, cancel := context.WithTimeout(ctx, m.opts.Settle)
	defer cancel()
	srv, reason := m.serverFor(budget, abs, true)
	if srv == nil {
		if budget.Err() != nil && ctx.Err() == nil {
			m.opts.Logger.Info("language server not ready within the settle time", "path", abs, "settle", m.opts.Settle)
		}
		return m.noteOnce(reason)
	}
	before, _ := srv.diags.get(abs)
	version, since, err := srv.sync(budget, abs, text, true)
	if err != nil {
		if budget.Err() != nil {
			return ""
		}
		m.opts.Logger.Warn("language server sync failed", "server", srv.cfg.Name, "path", abs, "err", err)
		return m.crashNote(srv)
	}
	after, ok := srv.diagnostics(budget, abs, version, since)
	if !ok {
		if !srv.alive() {
			return m.crashNote(srv)
		}
		m.opts.Logger.Info("no diagnostics within the settle time", "server", srv.cfg.Name, "path", abs, "settle", m.opts.Settle)
		return ""
	}
	fresh := newErrors(errorsOf(before.diags), errorsOf(after))
	if len(fresh) == 0 {
		return ""
	}
	name := m.display(abs)
	var b strings.Builder
	fmt.Fprintf(&b, "%s reports %s in %s after this change:", srv.cfg.Name, countNoun(len(fresh), "new error"), name)
	writeDiagnostics(&b, name, text, fresh)
	return b.String()
}

// AfterRead tells path's language server the file holds text: didOpen on
// first touch, didChange when it changed. It does not wait for a server to
// start (it starts one in the background) nor for diagnostics.
func (m *Manager) AfterRead(ctx context.Context, path, text string) {
	abs := m.abs(path)
	srv, _ := m.serverFor(ctx, abs, false)
	if srv == nil {
		return
	}
	if _, _, err := srv.sync(ctx, abs, text, false); err != nil {
		m.opts.Logger.Warn("language server sync failed", "server", srv.cfg.Name, "path", abs, "err", err)
	}
}

// crashNote is the note for a server that stopped while in use: it is
// restarted at the next use, once.
func (m *Manager) crashNote(srv *server) string {
	return m.noteOnce(fmt.Sprintf("%s stopped unexpectedly%s; it will be restarted once", srv.cfg.Name, stderrTail(srv.proc)))
}

// errorsOf returns the diagnostics of error severity (or none given).
func errorsOf(diags []protocol.Diagnostic) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range diags {
		if d.Severity == protocol.DiagnosticSeverityError || d.Severity == 0 {
			out = append(out, d)
		}
	}
	return out
}

// newErrors returns the diagnostics of after that before did not have.
// Diagnostics are matched by source and message, counted, so an error
// that moved with the lines around it is not new.
func newErrors(before, after []protocol.Diagnostic) []protocol.Diagnostic {
	seen := map[string]int{}
	for _, d := range before {
		seen[diagKey(d)]++
	}
	var out []protocol.Diagnostic
	for _, d := range after {
		k := diagKey(d)
		if seen[k] > 0 {
			seen[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}

// diagKey identifies a diagnostic regardless of where it is.
func diagKey(d protocol.Diagnostic) string {
	src, _ := d.Source.Get()
	return src + "\x00" + messageOf(d)
}

// messageOf is a diagnostic's message as plain text.
func messageOf(d protocol.Diagnostic) string {
	switch m := d.Message.(type) {
	case protocol.String:
		return string(m)
	case *protocol.MarkupContent:
		return m.Value
	default:
		return ""
	}
}

// writeDiagnostics writes one line per diagnostic, "name:line:col:
// message", with 1-based lines and columns counted in characters of text,
// at most maxReported of them.
func writeDiagnostics(b *strings.Builder, name, text string, diags []protocol.Diagnostic) {
	for i, d := range diags {
		if i == maxReported {
			fmt.Fprintf(b, "\n… and %d more", len(diags)-maxReported)
			break
		}
		line, col := oneBased(text, d.Range.Start)
		msg := strings.ReplaceAll(strings.TrimSpace(messageOf(d)), "\n", " ")
		fmt.Fprintf(b, "\n%s:%d:%d: %s", name, line, col, msg)
	}
}

// oneBased converts an LSP position in text to a 1-based line and a
// 1-based column counted in characters.
func oneBased(text string, p protocol.Position) (line, col int) {
	l, _ := lineText(text, int(p.Line))
	return int(p.Line) + 1, charColumn(l, p.Character) + 1
}

// abs resolves path against the first root when it is relative.
func (m *Manager) abs(path string) string {
	if !filepath.IsAbs(path) && len(m.opts.Roots) > 0 {
		path = filepath.Join(m.opts.Roots[0], path)
	}
	return filepath.Clean(path)
}

// display is path as messages show it: relative to the first root when
// below it.
func (m *Manager) display(abs string) string {
	if len(m.opts.Roots) == 0 {
		return abs
	}
	rel, ok := workspace.Relative(m.opts.Roots[0], abs)
	if !ok {
		return abs
	}
	return filepath.ToSlash(rel)
}

// countNoun returns "1 new error", "2 new errors".
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
