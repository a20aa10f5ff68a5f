package command

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
)

// sedLine is a sed command line as one sed dialect reads it.
type sedLine struct {
	scripts    []string // -e values, or the first operand
	files      []int    // the indexes of the file operands
	inPlace    bool
	scriptFile bool  // -f: the script is in a file
	err        error // this sed would refuse the line
}

// sedDialects lists the seds a line may meet: GNU sed (and busybox's,
// which reads -i the same way) everywhere, and BSD sed on systems where
// it is the default. BSD sed takes -i's suffix as the next word, so
// "sed -i 's/a/b/' 'w /tmp/x'" is a harmless GNU edit of a file named
// "w /tmp/x" but a BSD script that writes /tmp/x: a line must be
// read-only under each.
func sedDialects() []bool {
	if runtime.GOOS == "linux" {
		return []bool{false}
	}
	return []bool{false, true}
}

// parseSed reads a sed command line as GNU sed (bsd false) or BSD sed
// does.
func parseSed(s Simple, bsd bool) sedLine {
	spec := flagSpec{short: "efl", attached: "i", long: []string{"expression", "file", "line-length"}}
	known := "nrEsuzb"
	if bsd {
		spec = flagSpec{short: "Iefi", posix: true}
		known = "Ealnrsuz"
	}
	var l sedLine
	for _, o := range scan(s, 1, spec) {
		switch {
		case o.unknown:
			l.err = fmt.Errorf("%s is known only when it runs", s.Words[o.index])
		case o.name == "":
			l.files = append(l.files, o.index)
		case o.is("-e", "--expression"):
			if !s.literal(o.index) || (o.valueIndex >= 0 && !s.literal(o.valueIndex)) {
				l.err = fmt.Errorf("the script %s is known only when it runs", o.value)
			}
			l.scripts = append(l.scripts, o.value)
		case o.is("-f", "--file"):
			l.scriptFile = true
		case o.is("-i", "--in-place"), bsd && o.name == "-I":
			l.inPlace = true
		case o.name == "-l" || o.is("", "--line-length"):
		case len(o.name) == 2 && strings.Contains(known, o.name[1:]):
		case !bsd && longSedFlag(o.name):
		default:
			l.err = fmt.Errorf("sed %s is not an option this list knows", o.name)
		}
	}
	if len(l.scripts) == 0 && !l.scriptFile {
		if len(l.files) == 0 {
			l.err = errors.New("sed has no script")
			return l
		}
		if i := l.files[0]; !s.literal(i) {
			l.err = fmt.Errorf("the script %s is known only when it runs", s.Words[i])
		}
		l.scripts, l.files = []string{s.Words[l.files[0]]}, l.files[1:]
	}
	return l
}

// longSedFlag reports whether name is one of GNU sed's long options
// that take no value.
func longSedFlag(name string) bool {
	for _, flag := range []string{"quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data",
		"zero-terminated", "posix", "sandbox", "debug", "follow-symlinks", "binary"} {
		if strings.HasPrefix(name, "--") && abbreviates(name[2:], flag) {
			return true
		}
	}
	return false
}

// sedReadOnly reports whether a sed line only reads (its -i files aside,
// which are writes): under every dialect, no script file and no script
// command that writes a file or runs one.
func sedReadOnly(s Simple) (bool, string) {
	for _, bsd := range sedDialects() {
		if ok, reason := sedLineReadOnly(parseSed(s, bsd)); !ok {
			return false, reason
		}
	}
	return true, ""
}

// sedLineReadOnly judges one dialect's reading of a sed line.
func sedLineReadOnly(l sedLine) (bool, string) {
	switch {
	case l.err != nil:
		return false, fmt.Sprintf("sed cannot be judged: %v", l.err)
	case l.scriptFile:
		return false, "sed -f runs a script file, which cannot be judged"
	}
	for _, script := range l.scripts {
		if err := checkSedScript(script); err != nil {
			return false, err.Error()
		}
	}
	return true, ""
}

// sedWrites records the files a sed line edits in place, under every
// dialect.
func (p *parser) sedWrites(s Simple) {
	for _, bsd := range sedDialects() {
		l := parseSed(s, bsd)
		if !l.inPlace {
			continue
		}
		if l.err != nil {
			p.unknownWrite("", "sed -i", "cannot tell what sed -i writes: %v", l.err)
			continue
		}
		for _, i := range l.files {
			p.writeWord(s, i, "sed -i")
		}
	}
}

// sedScanner reads one sed script.
type sedScanner struct {
	src   string
	i     int
	reads []string // the files of r and R commands
}

// checkSedScript returns nil when script only reads and prints: no w, W
// or e command, no s///w or s///e. A script it cannot read is an error
// too. A bracket expression holding the delimiter is refused, since GNU
// and BSD sed end the regular expression in different places there.
func checkSedScript(script string) error {
	_, err := scanSedScript(script)
	return err
}

// scanSedScript reads script as checkSedScript does and returns the
// files its r and R commands read.
func scanSedScript(script string) (reads []string, err error) {
	sc := &sedScanner{src: script}
	for {
		sc.skip(" \t\n;")
		if sc.eof() {
			return sc.reads, nil
		}
		if sc.peek() == '#' {
			sc.toLineEnd()
			continue
		}
		if err := sc.address(); err != nil {
			return sc.reads, err
		}
		if err := sc.command(); err != nil {
			return sc.reads, err
		}
	}
}

func (sc *sedScanner) eof() bool  { return sc.i >= len(sc.src) }
func (sc *sedScanner) peek() byte { return sc.src[sc.i] }

// skip moves past any of chars.
func (sc *sedScanner) skip(chars string) {
	for !sc.eof() && strings.IndexByte(chars, sc.peek()) >= 0 {
		sc.i++
	}
}

// toLineEnd moves to the end of the line.
func (sc *sedScanner) toLineEnd() {
	for !sc.eof() && sc.peek() != '\n' {
		sc.i++
	}
}

// address reads an optional address or address range, and any "!".
func (sc *sedScanner) address() error {
	if err := sc.oneAddress(false); err != nil {
		return err
	}
	sc.skip(" \t")
	if !sc.eof() && sc.peek() == ',' {
		sc.i++
		sc.skip(" \t")
		if err := sc.oneAddress(true); err != nil {
			return err
		}
	}
	sc.skip(" \t")
	for !sc.eof() && sc.peek() == '!' {
		sc.i++
		sc.skip(" \t")
	}
	return nil
}

// oneAddress reads one address: a line number (with GNU's first~step),
// $, /regex/ or \cregexc (with I or M after), and in a range's second
// place GNU's +N and ~N.
func (sc *sedScanner) oneAddress(second bool) error {
	if sc.eof() {
		return nil
	}
	switch c := sc.peek(); {
	case c >= '0' && c <= '9':
		sc.skip("0123456789")
		if !sc.eof() && sc.peek() == '~' {
			sc.i++
			sc.skip("0123456789")
		}
	case c == '$':
		sc.i++
	case second && (c == '+' || c == '~'):
		sc.i++
		sc.skip("0123456789")
	case c == '/' || c == '\\':
		if c == '\\' {
			sc.i++
			if sc.eof() {
				return errors.New("sed address is cut short")
			}
		}
		delim := sc.peek()
		sc.i++
		if err := sc.delimited(delim, true); err != nil {
			return err
		}
		sc.skip("IM")
	}
	return nil
}

// delimited moves past text up to the unescaped delim, and past delim.
// In a regular expression, a bracket expression holding delim is
// refused (see checkSedScript).
func (sc *sedScanner) delimited(delim byte, regex bool) error {
	for !sc.eof() {
		c := sc.peek()
		switch {
		case c == '\\':
			sc.i += 2
			continue
		case c == delim:
			sc.i++
			return nil
		case c == '\n' && regex:
			return errors.New("sed regular expression is cut by a newline")
		case c == '[' && regex:
			end := bracketEnd(sc.src, sc.i)
			if end < 0 || strings.IndexByte(sc.src[sc.i:end], delim) >= 0 {
				return errors.New("sed bracket expression holds the delimiter, which seds read differently")
			}
			sc.i = end
			continue
		}
		sc.i++
	}
	return errors.New("sed expression is not closed")
}

// bracketEnd returns the index after the "]" closing the bracket
// expression that opens at src[i], or -1.
func bracketEnd(src string, i int) int {
	j := i + 1
	if j < len(src) && src[j] == '^' {
		j++
	}
	if j < len(src) && src[j] == ']' {
		j++
	}
	for ; j < len(src); j++ {
		switch src[j] {
		case ']':
			return j + 1
		case '[':
			// [:class:], [=e=] and [.c.] hold a "]" of their own.
			if j+1 < len(src) && strings.IndexByte(":=.", src[j+1]) >= 0 {
				if k := strings.Index(src[j+2:], string(src[j+1])+"]"); k >= 0 {
					j += 2 + k + 1
				}
			}
		}
	}
	return -1
}

// command reads one command after its address.
func (sc *sedScanner) command() error {
	if sc.eof() {
		return errors.New("sed address has no command")
	}
	c := sc.peek()
	sc.i++
	switch c {
	case '{', '}':
		return nil
	case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		return sc.end()
	case 'l', 'L', 'q', 'Q':
		sc.skip(" \t")
		sc.skip("0123456789")
		return sc.end()
	case ':', 'b', 't', 'T', 'v':
		sc.skip(" \t")
		start := sc.i
		for !sc.eof() && strings.IndexByte("\n;}", sc.peek()) < 0 {
			sc.i++
		}
		if c == ':' && sc.i == start {
			return errors.New("sed label has no name")
		}
		return nil
	case 'a', 'i', 'c':
		sc.text()
		return nil
	case 'r', 'R':
		sc.skip(" \t")
		start := sc.i
		sc.toLineEnd() // the file it reads, to the end of the line
		if file := sc.src[start:sc.i]; file != "" {
			sc.reads = append(sc.reads, file)
		}
		return nil
	case 'w', 'W':
		return errors.New("sed's w command writes a file")
	case 'e':
		return errors.New("sed's e command runs a command")
	case 's':
		return sc.substitute()
	case 'y':
		if sc.eof() {
			return errors.New("sed y is cut short")
		}
		delim := sc.peek()
		sc.i++
		if err := sc.delimited(delim, false); err != nil {
			return err
		}
		if err := sc.delimited(delim, false); err != nil {
			return err
		}
		return sc.end()
	}
	return fmt.Errorf("sed command %q is not one this list knows", c)
}

// end checks that a command ends where it should.
func (sc *sedScanner) end() error {
	sc.skip(" \t")
	if sc.eof() || strings.IndexByte("\n;}#", sc.peek()) >= 0 {
		return nil
	}
	return fmt.Errorf("sed has extra characters after a command: %q", sc.src[sc.i:])
}

// text moves past the text of a, i or c: the rest of the line, and the
// lines after it while a line ends in an odd number of backslashes.
func (sc *sedScanner) text() {
	for {
		start := sc.i
		sc.toLineEnd()
		line := sc.src[start:sc.i]
		trailing := len(line) - len(strings.TrimRight(line, `\`))
		if sc.eof() || trailing%2 == 0 {
			return
		}
		sc.i++ // the escaped newline
	}
}

// substitute reads s/regex/replacement/flags.
func (sc *sedScanner) substitute() error {
	if sc.eof() || sc.peek() == '\n' || sc.peek() == '\\' {
		return errors.New("sed s has no delimiter")
	}
	delim := sc.peek()
	sc.i++
	if err := sc.delimited(delim, true); err != nil {
		return err
	}
	if err := sc.delimited(delim, false); err != nil {
		return err
	}
	for !sc.eof() {
		switch c := sc.peek(); {
		case c == 'e':
			return errors.New("sed's s///e runs the pattern space as a command")
		case c == 'w':
			return errors.New("sed's s///w writes a file")
		case strings.IndexByte("gpiImM0123456789", c) >= 0:
			sc.i++
		default:
			return sc.end()
		}
	}
	return nil
}
