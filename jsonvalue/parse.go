package jsonvalue

import (
	"fmt"
	"unicode/utf8"
)

// maxDepth caps how deeply arrays and objects may nest, as encoding/json
// does, so hostile input cannot exhaust the stack.
const maxDepth = 10000

// indexThreshold is the member count above which an object gets a key index,
// keeping duplicate detection and Lookup linear on hostile wide objects.
const indexThreshold = 16

// scratchSize is how many container children the parser holds before its
// scratch stack moves to the heap.
const scratchSize = 16

// Parse parses text as exactly one strict RFC 8259 JSON value, optionally
// surrounded by whitespace.
//
// Duplicate object keys resolve as JavaScript's JSON.parse does: the last
// value wins and the key keeps its first position. Invalid UTF-8 and lone
// surrogate escapes in strings become U+FFFD, as with encoding/json.
//
// Malformed or too deeply nested text yields a *[SyntaxError]. A number that
// overflows float64 or is (or rounds to) negative zero yields an error that
// wraps [ErrNotLossless] and names the number.
func Parse(text string) (Value, error) {
	p := parser{text: text, scratch: make([]Member, 0, min(scratchSize, len(text)/2+1))}
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos < len(p.text) {
		return Value{}, p.unexpected("after top-level value")
	}
	return v, nil
}

// parser is the state of one Parse call.
type parser struct {
	text  string
	pos   int
	depth int
	// scratch collects the children of the containers being parsed; each
	// container copies its own children out into an exactly sized slice.
	scratch []Member
}

func (p *parser) skipSpace() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// peek returns the byte at the current position, or 0 at the end of input.
func (p *parser) peek() byte {
	if p.pos < len(p.text) {
		return p.text[p.pos]
	}
	return 0
}

func (p *parser) errorAt(offset int, msg string) error {
	return &SyntaxError{Offset: offset, msg: msg}
}

// unexpected reports the byte at the current position, or the end of input.
func (p *parser) unexpected(context string) error {
	if p.pos >= len(p.text) {
		return p.errorAt(p.pos, "unexpected end of JSON input")
	}
	return p.errorAt(p.pos, "invalid character "+describe(p.text[p.pos:])+" "+context)
}

// describe quotes the character that starts s for an error message.
func describe(s string) string {
	switch c := s[0]; {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c >= 0x20 && c < 0x7f:
		return "'" + string(c) + "'"
	case c < utf8.RuneSelf:
		return fmt.Sprintf("%q", c)
	}
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf("byte %#02x", s[0])
	}
	return fmt.Sprintf("%q", r)
}

func (p *parser) value() (Value, error) {
	switch c := p.peek(); {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.string()
		return Value{kind: KindString, text: s}, err
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", Value{kind: KindBool, boolean: true})
	case c == 'f':
		return p.literal("false", Value{kind: KindBool})
	case c == 'n':
		return p.literal("null", Value{kind: KindNull})
	}
	return Value{}, p.unexpected("looking for beginning of value")
}

func (p *parser) literal(word string, v Value) (Value, error) {
	for i := 0; i < len(word); i++ {
		if p.pos >= len(p.text) || p.text[p.pos] != word[i] {
			return Value{}, p.unexpected("in literal " + word)
		}
		p.pos++
	}
	return v, nil
}

// enter accounts for one more level of nesting at an opening bracket.
func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorAt(p.pos, fmt.Sprintf("exceeded max depth %d", maxDepth))
	}
	p.pos++
	p.skipSpace()
	return nil
}

// children moves the children collected since start out of the scratch
// stack into their own slice.
func (p *parser) children(start int) []Member {
	n := len(p.scratch) - start
	if n == 0 {
		return nil
	}
	if p.depth == 0 {
		// The root container closes last: hand it the scratch stack itself.
		items := p.scratch[:n:n]
		p.scratch = nil
		return items
	}
	items := make([]Member, n)
	copy(items, p.scratch[start:])
	p.scratch = p.scratch[:start]
	return items
}

func (p *parser) array() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	start := len(p.scratch)
	if p.peek() != ']' {
		for {
			elem, err := p.value()
			if err != nil {
				return Value{}, err
			}
			p.scratch = append(p.scratch, Member{Value: elem})
			p.skipSpace()
			if p.peek() != ',' {
				break
			}
			p.pos++
			p.skipSpace()
		}
		if p.peek() != ']' {
			return Value{}, p.unexpected("after array element")
		}
	}
	p.pos++
	p.depth--
	return Value{kind: KindArray, items: p.children(start)}, nil
}

func (p *parser) object() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	start := len(p.scratch)
	var index map[string]int
	if p.peek() != '}' {
		for {
			if p.peek() != '"' {
				return Value{}, p.unexpected("looking for beginning of object key string")
			}
			key, err := p.string()
			if err != nil {
				return Value{}, err
			}
			p.skipSpace()
			if p.peek() != ':' {
				return Value{}, p.unexpected("after object key")
			}
			p.pos++
			p.skipSpace()
			val, err := p.value()
			if err != nil {
				return Value{}, err
			}
			index = p.addMember(start, index, key, val)
			p.skipSpace()
			if p.peek() != ',' {
				break
			}
			p.pos++
			p.skipSpace()
		}
		if p.peek() != '}' {
			return Value{}, p.unexpected("after object key:value pair")
		}
	}
	p.pos++
	p.depth--
	return Value{kind: KindObject, items: p.children(start), index: index}, nil
}

// addMember adds key to the object whose members start at start, or, when
// the key is already there, replaces its value in place (JSON.parse
// semantics). It returns the object's key index, built once the object grows
// past indexThreshold members.
func (p *parser) addMember(start int, index map[string]int, key string, val Value) map[string]int {
	members := p.scratch[start:]
	if index != nil {
		if i, ok := index[key]; ok {
			members[i].Value = val
			return index
		}
		index[key] = len(members)
	} else {
		for i := range members {
			if members[i].Key == key {
				members[i].Value = val
				return nil
			}
		}
		if len(members) == indexThreshold {
			index = make(map[string]int, 2*indexThreshold)
			for i := range members {
				index[members[i].Key] = i
			}
			index[key] = len(members)
		}
	}
	p.scratch = append(p.scratch, Member{Key: key, Value: val})
	return index
}
