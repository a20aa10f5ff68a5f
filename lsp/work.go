package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
)

// work follows what a server says it is busy with: the work-done
// progress it reports with $/progress (gopls: "Setting up workspace" from
// initialized until its packages are loaded; typescript-language-server,
// rust-analyzer and pyright report their indexing the same way). A server
// with work in progress is still loading: a request may wait behind the
// load, or be refused until it ends.
//
// Notifications are handled concurrently, so a progress's end may be
// handled before its begin: an ended token stays ended.
type work struct {
	mu      sync.Mutex
	open    map[string]*progress // by token
	ended   map[string]bool
	changed chan struct{} // closed and replaced whenever open changes
}

// progress is one piece of work in progress.
type progress struct {
	title, message string
	percentage     *uint32
}

// progressValue is the union of the begin, report and end values of a
// $/progress notification.
type progressValue struct {
	Kind       string  `json:"kind"`
	Title      string  `json:"title"`
	Message    *string `json:"message"`
	Percentage *uint32 `json:"percentage"`
}

func newWork() *work {
	return &work{open: map[string]*progress{}, ended: map[string]bool{}, changed: make(chan struct{})}
}

// update records one $/progress notification. It reports whether the
// server began work it was not doing before, and an error for a value
// that is not work-done progress.
func (w *work) update(p *protocol.ProgressParams) (began bool, err error) {
	var v progressValue
	if err := json.Unmarshal(p.Value, &v); err != nil {
		return false, fmt.Errorf("progress %s: %w", tokenKey(p.Token), err)
	}
	key := tokenKey(p.Token)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ended[key] {
		return false, nil // its end came first
	}
	switch v.Kind {
	case "begin", "report":
		pr, ok := w.open[key]
		if !ok {
			pr = &progress{}
			w.open[key] = pr
			w.wake()
		}
		if v.Title != "" {
			pr.title = v.Title
		}
		if v.Message != nil {
			pr.message = *v.Message
		}
		if v.Percentage != nil {
			pr.percentage = v.Percentage
		}
		return !ok, nil
	case "end":
		w.ended[key] = true
		if _, ok := w.open[key]; ok {
			delete(w.open, key)
			w.wake()
		}
		return false, nil
	default:
		return false, fmt.Errorf("progress %s: unknown kind %q", key, v.Kind)
	}
}

// wake tells the waiters that the work changed. Called with w.mu held.
func (w *work) wake() {
	close(w.changed)
	w.changed = make(chan struct{})
}

// state describes the work in progress ("" when there is none) and
// returns a channel closed when work begins or ends.
func (w *work) state() (string, <-chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.describe(), w.changed
}

// busy reports whether work is in progress.
func (w *work) busy() bool {
	doing, _ := w.state()
	return doing != ""
}

// waitIdle waits until no work is in progress, or ctx ends; it reports
// which.
func (w *work) waitIdle(ctx context.Context) bool {
	return w.waitFor(ctx, false)
}

// waitFor waits until the server is busy (or idle) as wanted, or ctx
// ends; it reports which.
func (w *work) waitFor(ctx context.Context, busy bool) bool {
	for {
		doing, changed := w.state()
		if (doing != "") == busy {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}

// describe is the work in progress as one phrase, each piece as
// "title: message (n%)", in a stable order. Called with w.mu held.
func (w *work) describe() string {
	parts := make([]string, 0, len(w.open))
	for _, p := range w.open {
		s := p.title
		if p.message != "" {
			if s != "" {
				s += ": "
			}
			s += p.message
		}
		if p.percentage != nil {
			s += fmt.Sprintf(" (%d%%)", *p.percentage)
		}
		if s == "" {
			s = "work without a title"
		}
		parts = append(parts, s)
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// tokenKey is a progress token as a map key; a number and a string with
// the same digits are different tokens.
func tokenKey(t protocol.ProgressToken) string {
	switch t := t.(type) {
	case protocol.String:
		return "s:" + string(t)
	case protocol.Integer:
		return fmt.Sprintf("i:%d", t)
	default:
		return fmt.Sprintf("%T:%v", t, t)
	}
}
