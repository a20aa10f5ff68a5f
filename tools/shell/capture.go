package shell

import (
	"fmt"
	"strings"
)

// capture keeps one output stream within a memory limit: all of it while
// it fits in headMax+tailMax bytes, then only its first headMax and its
// last tailMax bytes.
type capture struct {
	headMax, tailMax int
	head             []byte // the first headMax bytes, once cut
	tail             []byte // everything until cut; then the latest bytes
	tailStart        int64  // the stream offset of tail[0]
	total            int64  // bytes written so far
	cut              bool
}

// newCapture returns a capture keeping headMax and tailMax bytes.
func newCapture(headMax, tailMax int) *capture {
	return &capture{headMax: headMax, tailMax: tailMax}
}

// write appends b. It reports true on the write that first exceeds the
// limit, when the stream stops being kept whole.
func (c *capture) write(b []byte) (overflowed bool) {
	c.total += int64(len(b))
	c.tail = append(c.tail, b...)
	if !c.cut && c.total > int64(c.headMax+c.tailMax) {
		c.cut = true
		c.head = append([]byte(nil), c.tail[:c.headMax]...)
		overflowed = true
	}
	if c.cut && len(c.tail) > 2*c.tailMax {
		drop := len(c.tail) - c.tailMax
		c.tail = c.tail[:copy(c.tail, c.tail[drop:])]
		c.tailStart += int64(drop)
	}
	return overflowed
}

// truncated reports whether bytes of the stream have been dropped.
func (c *capture) truncated() bool { return c.cut }

// text returns the stream as kept: whole, or its head, a line saying how
// many bytes were left out, and its tail, both cut on line or character
// boundaries. The text is valid UTF-8.
func (c *capture) text() string {
	if !c.cut {
		return validText(c.tail)
	}
	head := cutHead(c.head)
	tail := cutTail(c.tail[max(0, len(c.tail)-c.tailMax):])
	omitted := c.total - int64(len(head)) - int64(len(tail))
	var b strings.Builder
	b.Write(head)
	if len(head) > 0 && head[len(head)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[... %d bytes omitted ...]\n", omitted)
	b.Write(tail)
	return validText([]byte(b.String()))
}

// since returns the kept bytes from stream offset off on, and how many
// bytes after off are no longer kept. It is meant for captures without a
// head (headMax 0), whose kept bytes are all in the tail.
func (c *capture) since(off int64) (data []byte, skipped int64) {
	if off < c.tailStart {
		skipped = c.tailStart - off
		off = c.tailStart
	}
	return c.tail[off-c.tailStart:], skipped
}
