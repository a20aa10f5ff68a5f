package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Error is one problem in a config file: the file, the line, the key and
// what is wrong. Load returns one *Error, or several joined with
// [errors.Join] (find each with errors.As on the joined error's Unwrap).
type Error struct {
	// Path is the config file.
	Path string
	// Line is the 1-based line the problem is on; 0 when no line is known.
	Line int
	// Column is the 1-based column of a syntax error; 0 otherwise.
	Column int
	// Key is the dotted key the problem is about, as written in TOML
	// (models."gpt-4.1".price); empty for a syntax error.
	Key string
	// Msg says what is wrong.
	Msg string
}

// Error reads "path:line: key: message", leaving out what is not known.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// decodeErrors turns what the TOML decoder reports about doc into
// *Error values: one per unknown key or table, or the one syntax or type
// error.
func decodeErrors(path string, doc []byte, err error) error {
	var missing *toml.StrictMissingError
	if errors.As(err, &missing) {
		// The decoder loses the path of a key inside an inline table
		// (price = {cache = 1} is reported as "cache"): take the path
		// from the document, by the key's place.
		pos := indexPositions(doc)
		errs := make([]error, 0, len(missing.Errors))
		for i := range missing.Errors {
			e := &missing.Errors[i]
			line, column := e.Position()
			key, ok := pos.keyAt(line, column)
			if !ok {
				key = e.Key()
			}
			msg := "unknown key"
			if strings.Contains(e.Error(), "missing table") {
				msg = "unknown table"
				if len(key) > 2 && (key[0] == "models" || key[0] == "providers") {
					msg += fmt.Sprintf(` (a name with a dot needs quotes: [%s.%q])`, key[0], strings.Join(key[1:], "."))
				}
			}
			errs = append(errs, &Error{Path: path, Line: line, Key: dottedKey(key), Msg: msg})
		}
		return errors.Join(errs...)
	}
	var decode *toml.DecodeError
	if errors.As(err, &decode) {
		line, column := decode.Position()
		key := dottedKey(decode.Key())
		msg := strings.TrimPrefix(decode.Error(), "toml: ")
		if typeMsg, ok := typeMismatch(msg); ok {
			return &Error{Path: path, Line: line, Key: key, Msg: typeMsg}
		}
		if key != "" {
			column = 0
		}
		return &Error{Path: path, Line: line, Column: column, Key: key, Msg: msg}
	}
	return &Error{Path: path, Msg: err.Error()}
}

// typeMismatch rewords the decoder's "cannot decode TOML string into
// struct field x.y of type int64" as "want an integer, not a string",
// leaving Go's names out; ok is false for any other message.
func typeMismatch(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, "cannot decode TOML ")
	if !ok {
		return "", false
	}
	got, rest, ok := strings.Cut(rest, " into ")
	if !ok {
		return "", false
	}
	_, goType, ok := strings.Cut(rest, " of type ")
	if !ok {
		return "", false
	}
	var want string
	switch goType {
	case "string":
		want = "a string"
	case "int64":
		want = "an integer"
	case "float64":
		want = "a number"
	case "bool":
		want = "true or false"
	case "[]string":
		want = "a list of strings"
	default:
		want = "a table"
	}
	return fmt.Sprintf("want %s, not %s", want, withArticle(got)), true
}

// withArticle puts "a" or "an" before a TOML type name.
func withArticle(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// dottedKey writes a key as TOML would, quoting the parts that are not
// bare keys: models."gpt-4.1".price.
func dottedKey(parts []string) string {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = keyPart(p)
	}
	return strings.Join(quoted, ".")
}

// keyPart is p as a bare key when it is one, else as a quoted key.
func keyPart(p string) string {
	if p == "" {
		return `""`
	}
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Sprintf("%q", p)
		}
	}
	return p
}
