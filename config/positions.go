package config

import (
	"bytes"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// positions maps each key of a TOML document (every table, key and
// inline-table key, by its full dotted path) to the line it first
// appears on, so that errors found after decoding can name a line; and
// the place of each key as written to its full path.
type positions struct {
	lines map[string]int
	keys  map[place][]string
}

// place is a 1-based line and column.
type place struct{ line, column int }

// indexPositions reads the places of doc's keys. doc must parse: it is
// called after the decoder parsed it.
func indexPositions(doc []byte) positions {
	pos := positions{lines: map[string]int{}, keys: map[place][]string{}}
	var p unstable.Parser
	p.Reset(doc)
	var table []string
	for p.NextExpression() {
		expr := p.Expression()
		switch expr.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = pos.addKey(doc, nil, expr)
		case unstable.KeyValue:
			pos.addKeyValue(doc, table, expr)
		}
	}
	return pos
}

// addKeyValue records a key-value's key below table and, for an inline
// table value, every key inside it.
func (pos positions) addKeyValue(doc []byte, table []string, kv *unstable.Node) {
	path := pos.addKey(doc, table, kv)
	if v := kv.Value(); v.Kind == unstable.InlineTable {
		children := v.Children()
		for children.Next() {
			if child := children.Node(); child.Kind == unstable.KeyValue {
				pos.addKeyValue(doc, path, child)
			}
		}
	}
}

// addKey records the node's key, and each of its dotted prefixes, below
// parent at the line of its first part; it returns the full path.
func (pos positions) addKey(doc []byte, parent []string, n *unstable.Node) []string {
	path := append([]string(nil), parent...)
	var at place
	key := n.Key()
	for key.Next() {
		part := key.Node()
		if at.line == 0 {
			before := doc[:part.Raw.Offset]
			at.line = 1 + bytes.Count(before, []byte("\n"))
			at.column = len(before) - (bytes.LastIndexByte(before, '\n') + 1) + 1
		}
		path = append(path, string(part.Data))
		name := pathName(path)
		if _, seen := pos.lines[name]; !seen {
			pos.lines[name] = at.line
		}
	}
	pos.keys[at] = path
	return path
}

// keyAt is the full path of the key written at line and column.
func (pos positions) keyAt(line, column int) ([]string, bool) {
	path, ok := pos.keys[place{line, column}]
	return path, ok
}

// line is the line of path, or of its longest prefix that appears in the
// document; 0 when none does.
func (pos positions) line(path ...string) int {
	for n := len(path); n > 0; n-- {
		if line, ok := pos.lines[pathName(path[:n])]; ok {
			return line
		}
	}
	return 0
}

// pathName is a key path as a map key.
func pathName(path []string) string {
	return strings.Join(path, "\x00")
}
