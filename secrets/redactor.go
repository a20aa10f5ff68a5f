package secrets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Marker replaces every secret a Redactor hides.
const Marker = "[REDACTED]"

// Redactor replaces literal secrets with Marker. It is immutable and safe
// for concurrent use; a nil or zero Redactor changes nothing, so callers
// need not check whether redaction is on.
type Redactor struct {
	values   []string // longest first, so a secret holding another is hidden whole
	replacer *strings.Replacer
	// needles are what a secret looks like inside JSON text: the value
	// itself and its JSON-escaped spellings (with and without HTML
	// escaping) where they differ.
	needles [][]byte
}

// NewRedactor returns a Redactor hiding values. Empty values and
// duplicates are ignored; every other value is hidden exactly as given (a
// caller wanting a minimum length, as EnvValues has, applies it first).
func NewRedactor(values ...string) *Redactor {
	r := &Redactor{}
	for _, v := range values {
		if v != "" && !slices.Contains(r.values, v) {
			r.values = append(r.values, v)
		}
	}
	if len(r.values) == 0 {
		return r
	}
	slices.SortStableFunc(r.values, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(r.values))
	for _, v := range r.values {
		pairs = append(pairs, v, Marker)
		r.needles = append(r.needles, []byte(v))
		for _, html := range []bool{false, true} {
			if esc := escaped(v, html); esc != v {
				r.needles = append(r.needles, []byte(esc))
			}
		}
	}
	r.replacer = strings.NewReplacer(pairs...)
	return r
}

// escaped is s as it appears between the quotes of a JSON string.
func escaped(s string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	_ = enc.Encode(s) // a string always encodes
	return string(bytes.TrimSuffix(bytes.TrimSpace(b.Bytes()), []byte(`"`))[1:])
}

// Empty reports whether r hides nothing.
func (r *Redactor) Empty() bool { return r == nil || r.replacer == nil }

// String returns s with every secret replaced by Marker; s itself when it
// holds none.
func (r *Redactor) String(s string) string {
	if r.Empty() || !slices.ContainsFunc(r.values, func(v string) bool { return strings.Contains(s, v) }) {
		return s
	}
	return r.replacer.Replace(s)
}

// Contains reports whether text holds a secret, as is or JSON-escaped.
func (r *Redactor) Contains(text []byte) bool {
	if r.Empty() {
		return false
	}
	for _, n := range r.needles {
		if bytes.Contains(text, n) {
			return true
		}
	}
	return false
}

// Pending returns how many bytes at the end of s could be the start of a
// secret that the next piece of a stream completes: the length of the
// longest suffix of s that is a proper prefix of a secret, 0 when there is
// none. A stream shown piece by piece holds those bytes back until the
// next piece (or its end), so a secret split across two pieces is still
// seen whole and hidden. The bytes held back start where a secret would,
// so they never split a UTF-8 character of a secret.
func (r *Redactor) Pending(s string) int {
	if r.Empty() {
		return 0
	}
	longest := 0
	for _, v := range r.values {
		for i := max(len(s)-len(v)+1, 0); i < len(s) && len(s)-i > longest; i++ {
			if s[i] == v[0] && strings.HasPrefix(v, s[i:]) {
				longest = len(s) - i
				break
			}
		}
	}
	return longest
}

// JSON returns the JSON text data with every secret inside its strings
// (keys and values) replaced by Marker. Text that holds no secret is
// returned as is, without being parsed (the common case costs one scan
// per secret); otherwise the text is parsed and written again, members in
// their order, numbers as written, HTML characters unescaped, so the
// result is valid JSON however the secret was spelled. A secret in a
// number or a literal is left alone. It fails only on text that is not
// one JSON value.
func (r *Redactor) JSON(data []byte) ([]byte, error) {
	if !r.Contains(data) {
		return data, nil
	}
	out, err := r.rewrite(data)
	if err != nil {
		return nil, fmt.Errorf("redact: %w", err)
	}
	return out, nil
}

// rewrite re-encodes data token by token, redacting every string.
func (r *Redactor) rewrite(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var b bytes.Buffer
	b.Grow(len(data))
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// counts[i] is how many tokens the i-th open container has had; an
	// object's even tokens are keys.
	var counts []int
	var kinds []json.Delim
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) && len(counts) == 0 {
			break
		}
		if errors.Is(err, io.EOF) {
			return nil, io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, err
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			b.WriteByte(byte(d))
			counts, kinds = counts[:len(counts)-1], kinds[:len(kinds)-1]
			continue
		}
		if n := len(counts); n > 0 {
			switch {
			case kinds[n-1] == '{' && counts[n-1]%2 == 1:
				b.WriteByte(':')
			case counts[n-1] > 0:
				b.WriteByte(',')
			}
			counts[n-1]++
		}
		switch t := tok.(type) {
		case json.Delim:
			b.WriteByte(byte(t))
			counts, kinds = append(counts, 0), append(kinds, t)
		case string:
			_ = enc.Encode(r.String(t)) // a string always encodes
			b.Truncate(b.Len() - 1)     // Encode's newline
		case json.Number:
			b.WriteString(t.String())
		case bool:
			b.WriteString(fmt.Sprint(t))
		case nil:
			b.WriteString("null")
		}
	}
	return b.Bytes(), nil
}
