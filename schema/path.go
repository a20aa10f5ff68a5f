package schema

import "strconv"

// path is a diagnostic path built in place as a walk descends and rendered
// only when a violation is reported, so deep walks stay linear.
type path struct {
	buf []byte
}

// mark returns the current length, to restore with reset.
func (p *path) mark() int { return len(p.buf) }

// reset truncates the path back to a mark.
func (p *path) reset(mark int) { p.buf = p.buf[:mark] }

// add appends literal text, such as ".items".
func (p *path) add(segment string) int {
	m := len(p.buf)
	p.buf = append(p.buf, segment...)
	return m
}

// addProperty appends a property name, with a dot unless the path is
// empty (the implicit arguments root).
func (p *path) addProperty(key string) int {
	m := len(p.buf)
	if m > 0 {
		p.buf = append(p.buf, '.')
	}
	p.buf = append(p.buf, key...)
	return m
}

// addIndex appends "[i]", after an optional segment such as ".oneOf".
func (p *path) addIndex(segment string, i int) int {
	m := len(p.buf)
	p.buf = append(p.buf, segment...)
	p.buf = append(p.buf, '[')
	p.buf = strconv.AppendInt(p.buf, int64(i), 10)
	p.buf = append(p.buf, ']')
	return m
}

func (p *path) String() string { return string(p.buf) }
