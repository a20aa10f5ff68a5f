package ignore

import "strings"

// Pattern is one compiled ignore pattern: a gitignore line, or an
// ripgrep-style --glob filter.
type Pattern struct {
	negate   bool
	dirOnly  bool
	anchored bool
	alts     []sequence
}

// sequence is one brace alternative of a pattern: its path segments.
type sequence []segment

// Negated reports whether the pattern began with '!' (it re-includes what
// it matches).
func (p *Pattern) Negated() bool { return p.negate }

// Compile compiles one gitignore-syntax pattern. ok is false for a line that
// holds no pattern: a blank line, a comment, or a lone '/' or '!'.
func Compile(line string) (p *Pattern, ok bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return nil, false
	}
	line = trimTrailingSpaces(line)
	p = &Pattern{}
	if line != "" && line[0] == '!' {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return nil, false
	}
	p.anchored = strings.Contains(line, "/")
	line = strings.TrimLeft(line, "/")
	if line == "" {
		return nil, false
	}
	for _, alt := range expandBraces(line) {
		p.alts = append(p.alts, compileSequence(alt, p.anchored))
	}
	return p, true
}

// Matches reports whether the pattern matches path (slash-separated,
// relative to the pattern's base directory), ignoring its negation.
func (p *Pattern) Matches(path string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	subject := path
	if !p.anchored {
		subject = path[strings.LastIndexByte(path, '/')+1:]
	}
	for _, seq := range p.alts {
		if seq.match(subject) {
			return true
		}
	}
	return false
}

// compileSequence splits a pattern into segments; a "**" segment matches
// any number of path segments (at least one when it ends an anchored
// pattern, so "dir/**" matches what is inside dir but not dir itself).
func compileSequence(pat string, anchored bool) sequence {
	if !anchored {
		return sequence{compileSegment(pat)}
	}
	var seq sequence
	for _, part := range strings.Split(pat, "/") {
		if part == "" {
			continue
		}
		s := compileSegment(part)
		if s.kind == segAny && len(seq) > 0 && seq[len(seq)-1].kind == segAny {
			continue
		}
		seq = append(seq, s)
	}
	return seq
}

// match reports whether the sequence matches exactly the segments of path.
func (seq sequence) match(path string) bool {
	for i, s := range seq {
		if s.kind == segAny {
			rest := seq[i+1:]
			if len(rest) == 0 {
				return true
			}
			for {
				if rest.match(path) {
					return true
				}
				j := strings.IndexByte(path, '/')
				if j < 0 {
					return false
				}
				path = path[j+1:]
			}
		}
		j := strings.IndexByte(path, '/')
		if j < 0 {
			return i == len(seq)-1 && s.match(path)
		}
		if !s.match(path[:j]) {
			return false
		}
		path = path[j+1:]
	}
	return false
}

// trimTrailingSpaces drops trailing spaces unless a backslash escapes them.
func trimTrailingSpaces(line string) string {
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
		line = line[:len(line)-1]
	}
	return line
}
