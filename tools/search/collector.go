package search

import (
	"container/heap"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// lineMatch is one matching line found by either search backend.
type lineMatch struct {
	path string // absolute
	line int
	text string
}

// collector gathers matches from concurrent producers and keeps the first
// limit of them in (path, line) order, so the result does not depend on
// the order files were searched in. It counts every match.
type collector struct {
	limit   int
	maxLine int

	mu    sync.Mutex
	kept  matchHeap
	total int
	files int
}

// newCollector keeps at most limit matches, each line cut to maxLine bytes.
func newCollector(limit, maxLine int) *collector {
	return &collector{limit: limit, maxLine: maxLine}
}

// add records the matches of one file, in line order.
func (c *collector) add(matches []lineMatch) {
	if len(matches) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += len(matches)
	c.files++
	for _, m := range matches {
		if len(c.kept) == c.limit {
			if !less(m, c.kept[0]) {
				// Later lines of this file sort later still.
				return
			}
			heap.Pop(&c.kept)
		}
		m.text = clipLine(m.text, c.maxLine)
		heap.Push(&c.kept, m)
	}
}

// reset forgets everything added.
func (c *collector) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kept, c.total, c.files = nil, 0, 0
}

// matches returns the kept matches in (path, line) order, how many were
// found in all, and in how many files.
func (c *collector) matches() (kept []lineMatch, total, files int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept = slices.Clone(c.kept)
	slices.SortFunc(kept, func(a, b lineMatch) int {
		if a.path != b.path {
			return strings.Compare(a.path, b.path)
		}
		return a.line - b.line
	})
	return kept, c.total, c.files
}

// clipLine makes text valid UTF-8 without a trailing '\r', cut to at most
// max bytes (on a character boundary) plus an ellipsis.
func clipLine(text string, max int) string {
	text = strings.TrimSuffix(text, "\r")
	if len(text) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…"
	}
	return strings.ToValidUTF8(text, "\uFFFD")
}

// less orders matches by path, then line.
func less(a, b lineMatch) bool {
	if a.path != b.path {
		return a.path < b.path
	}
	return a.line < b.line
}

// matchHeap is a max-heap of matches: the root is the one to drop first.
type matchHeap []lineMatch

func (h matchHeap) Len() int           { return len(h) }
func (h matchHeap) Less(i, j int) bool { return less(h[j], h[i]) }
func (h matchHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *matchHeap) Push(x any)        { *h = append(*h, x.(lineMatch)) }
func (h *matchHeap) Pop() any {
	old := *h
	m := old[len(old)-1]
	*h = old[:len(old)-1]
	return m
}
