package command

import "strings"

// flagSpec says which of a program's options take a value, for the
// GNU-style scanner below.
type flagSpec struct {
	// short lists the short options that take a value, attached (-oFILE)
	// or as the next word (-o FILE).
	short string
	// attached lists the short options whose value may only be attached:
	// sed's -i[SUFFIX].
	attached string
	// long lists the long options (without dashes) that take a value,
	// after "=" or as the next word. A long option given as a prefix of
	// one of these is taken as it, as getopt_long takes unambiguous
	// abbreviations.
	long []string
	// posix ends the options at the first operand, as wrappers and
	// POSIX programs do; otherwise options may follow operands (GNU).
	posix bool
}

// option is one option or operand found by scan.
type option struct {
	index int    // the word it starts at
	name  string // "-o", "--output"; "" for an operand
	value string // the option's value, when it has one
	// valueIndex is the word holding the value, -1 when the value is
	// attached or there is none.
	valueIndex int
	hasValue   bool
	// unknown is set for a word that is not literal but may be read as
	// an option: what it is cannot be told.
	unknown bool
}

// scan splits s's words from index from on into options and operands.
// Operands have an empty name. A "--" word ends the options and is not
// returned.
func scan(s Simple, from int, spec flagSpec) []option {
	var out []option
	optionsDone := false
	for i := from; i < len(s.Words); i++ {
		w := s.Words[i]
		switch {
		case !s.literal(i) && s.mayBeOption(i) && !optionsDone:
			out = append(out, option{index: i, valueIndex: -1, unknown: true})
		case optionsDone || !s.literal(i) || w == "-" || !strings.HasPrefix(w, "-"):
			out = append(out, option{index: i, valueIndex: -1})
			if spec.posix {
				optionsDone = true
			}
		case w == "--":
			optionsDone = true
		case strings.HasPrefix(w, "--"):
			name, value, hasValue := strings.Cut(w[2:], "=")
			o := option{index: i, name: "--" + name, value: value, hasValue: hasValue, valueIndex: -1}
			if !hasValue && longTakesValue(spec.long, name) && i+1 < len(s.Words) {
				i++
				o.value, o.hasValue, o.valueIndex = s.Words[i], true, i
			}
			out = append(out, o)
		default:
			i = scanShort(s, i, spec, &out)
		}
	}
	return out
}

// scanShort reads the cluster of short options at word i and returns the
// last word it used.
func scanShort(s Simple, i int, spec flagSpec, out *[]option) int {
	w := s.Words[i]
	for j := 1; j < len(w); j++ {
		c := w[j]
		o := option{index: i, name: "-" + string(c), valueIndex: -1}
		switch {
		case strings.IndexByte(spec.attached, c) >= 0:
			o.value, o.hasValue = w[j+1:], true
			*out = append(*out, o)
			return i
		case strings.IndexByte(spec.short, c) >= 0:
			switch {
			case j+1 < len(w):
				o.value, o.hasValue = w[j+1:], true
			case i+1 < len(s.Words):
				i++
				o.value, o.hasValue, o.valueIndex = s.Words[i], true, i
			}
			*out = append(*out, o)
			return i
		}
		*out = append(*out, o)
	}
	return i
}

// longTakesValue reports whether the long option name (or an
// abbreviation of it) takes a value.
func longTakesValue(valued []string, name string) bool {
	for _, v := range valued {
		if abbreviates(name, v) {
			return true
		}
	}
	return false
}

// abbreviates reports whether given names the long option full: exactly,
// or as the prefix getopt_long accepts.
func abbreviates(given, full string) bool {
	return given != "" && strings.HasPrefix(full, given)
}

// is reports whether o is the short option short (e.g. "-o") or the long
// option long (e.g. "--output", or an abbreviation of it).
func (o option) is(short, long string) bool {
	if o.name == "" {
		return false
	}
	if short != "" && o.name == short {
		return true
	}
	return long != "" && strings.HasPrefix(o.name, "--") && abbreviates(o.name[2:], strings.TrimPrefix(long, "--"))
}

// operands returns the operands among opts.
func operands(opts []option) []option {
	var out []option
	for _, o := range opts {
		if o.name == "" && !o.unknown {
			out = append(out, o)
		}
	}
	return out
}

// hasUnknown reports whether any of opts cannot be told apart.
func hasUnknown(opts []option) bool {
	for _, o := range opts {
		if o.unknown {
			return true
		}
	}
	return false
}

// anyWordIs reports whether a word of s from index 1 on is the long
// option long (given in full or abbreviated, with or without "=value"):
// a check that holds whatever the word stands for, value or option.
func anyWordIs(s Simple, long ...string) (string, bool) {
	for i := 1; i < len(s.Words); i++ {
		w := s.Words[i]
		if !s.literal(i) || !strings.HasPrefix(w, "--") {
			continue
		}
		name, _, _ := strings.Cut(w[2:], "=")
		for _, l := range long {
			if abbreviates(name, strings.TrimPrefix(l, "--")) {
				return w, true
			}
		}
	}
	return "", false
}
