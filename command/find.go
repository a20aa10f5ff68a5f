package command

import "strings"

// findCommand is what a find command does, by word index.
type findCommand struct {
	roots   []int     // the paths it starts from
	outputs []int     // files -fprint, -fprint0, -fprintf and -fls write
	deletes bool      // -delete
	execs   []findRun // commands -exec, -execdir, -ok and -okdir run
	unknown bool      // a word is not literal and may be a primary
}

// findRun is one command find runs: words [start, end) of the find.
type findRun struct {
	start, end int
	inFileDir  bool // -execdir and -okdir run it in each file's directory
}

// parseFind reads a find command line (GNU find's syntax).
func parseFind(s Simple) findCommand {
	var f findCommand
	i := 1
	// Leading options: -H -L -P -D debugopts -Olevel.
	for ; i < len(s.Words) && s.literal(i); i++ {
		w := s.Words[i]
		if w == "-D" {
			i++
			continue
		}
		if w != "-H" && w != "-L" && w != "-P" && !strings.HasPrefix(w, "-O") {
			break
		}
	}
	for ; i < len(s.Words); i++ {
		if s.mayBeOption(i) || isFindOperator(s, i) {
			break
		}
		f.roots = append(f.roots, i)
	}
	for ; i < len(s.Words); i++ {
		if !s.literal(i) {
			if s.mayBeOption(i) {
				f.unknown = true
			}
			continue
		}
		switch w := s.Words[i]; w {
		case "-exec", "-execdir", "-ok", "-okdir":
			end := findRunEnd(s, i+1)
			f.execs = append(f.execs, findRun{start: i + 1, end: end, inFileDir: w == "-execdir" || w == "-okdir"})
			i = end
		case "-delete":
			f.deletes = true
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(s.Words) {
				f.outputs = append(f.outputs, i+1)
			}
			values := 1
			if w == "-fprintf" {
				values = 2 // the file, then the format
			}
			f.unknown = f.unknown || splitsAny(s, i+1, i+1+values)
			i += values
		default:
			if findTakesValue(w) {
				// The value may be an expansion, but not one that could
				// split into more words.
				i++
				f.unknown = f.unknown || splitsAny(s, i, i+1)
			}
		}
	}
	return f
}

// splitsAny reports whether a word in [from, to) is an expansion that
// could become an option or several words.
func splitsAny(s Simple, from, to int) bool {
	for i := from; i < to && i < len(s.Words); i++ {
		if !s.literal(i) && s.mayBeOption(i) {
			return true
		}
	}
	return false
}

// isFindOperator reports whether word i opens find's expression.
func isFindOperator(s Simple, i int) bool {
	switch s.Words[i] {
	case "(", "!", ")", ",":
		return s.literal(i)
	}
	return false
}

// findRunEnd returns the index of the ";" (or the "+" after "{}") that
// ends the command starting at word start, or len(Words) when none does.
func findRunEnd(s Simple, start int) int {
	for j := start; j < len(s.Words); j++ {
		if !s.literal(j) {
			continue
		}
		if s.Words[j] == ";" || (s.Words[j] == "+" && j > start && s.Words[j-1] == "{}") {
			return j
		}
	}
	return len(s.Words)
}

// findTakesValue reports whether the find primary w takes the next word
// as its value. Only primaries certain to do so are listed: a value
// skipped by mistake could hide an action.
func findTakesValue(w string) bool {
	switch w {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
		"-lname", "-ilname", "-type", "-xtype", "-size", "-perm", "-user", "-group", "-uid", "-gid",
		"-newer", "-anewer", "-cnewer", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin",
		"-maxdepth", "-mindepth", "-links", "-inum", "-samefile", "-used", "-printf", "-fstype",
		"-context", "-regextype", "-files0-from":
		return true
	}
	return false
}

// findExec walks the commands a find runs as simple commands of their
// own; "{}" stands for a file name, which never starts with "-".
func (p *parser) findExec(s Simple, depth int) {
	f := parseFind(s)
	for _, run := range f.execs {
		if run.start >= run.end {
			continue
		}
		inner := Simple{Env: s.Env}
		for j := run.start; j < run.end; j++ {
			w := s.Words[j]
			inner.Words = append(inner.Words, w)
			inner.Literal = append(inner.Literal, s.literal(j) && !strings.Contains(w, "{}"))
			inner.optionFree = append(inner.optionFree, !s.mayBeOption(j))
			// "{}" is a file find met below its roots, which the find
			// itself is checked for: a name that globs there.
			wp := wordPaths{patterns: []string{strings.ReplaceAll(w, "{}", string(globChar))}}
			if !s.literal(j) {
				wp = s.pathsOf(j)
			}
			inner.paths = append(inner.paths, wp)
		}
		lost := p.lost
		if run.inFileDir {
			p.lost = true
		}
		p.run(inner, depth+1)
		p.lost = lost
	}
}
