package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// redacted replaces every secret the store must never write.
const redacted = "[REDACTED]"

// redactor replaces literal secrets in encoded lines and in index
// entries. The zero redactor (no secrets) changes nothing.
type redactor struct {
	// needles are what a secret looks like inside JSON text: the secret
	// itself and, when different, its JSON-escaped form.
	needles  [][]byte
	replacer *strings.Replacer
}

// newRedactor returns a redactor for secrets; empty strings are ignored.
func newRedactor(secrets []string) redactor {
	var r redactor
	var pairs []string
	for _, s := range secrets {
		if s == "" {
			continue
		}
		pairs = append(pairs, s, redacted)
		r.needles = append(r.needles, []byte(s))
		if quoted, err := json.Marshal(s); err == nil {
			if escaped := quoted[1 : len(quoted)-1]; !bytes.Equal(escaped, []byte(s)) {
				r.needles = append(r.needles, escaped)
			}
		}
	}
	if len(pairs) > 0 {
		r.replacer = strings.NewReplacer(pairs...)
	}
	return r
}

// String returns s with every secret replaced by "[REDACTED]".
func (r redactor) String(s string) string {
	if r.replacer == nil {
		return s
	}
	return r.replacer.Replace(s)
}

// Line returns a JSON line with every secret inside its string values
// replaced by "[REDACTED]". A line holding no secret is returned as is;
// one that does is decoded and encoded again, so a secret is replaced
// only where it is text (never inside a key, a number or the structure)
// and the line stays valid JSON.
func (r redactor) Line(line []byte) ([]byte, error) {
	if !r.occursIn(line) {
		return line, nil
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("redact: %w", err)
	}
	out, err := json.Marshal(r.value(v))
	if err != nil {
		return nil, fmt.Errorf("redact: %w", err)
	}
	return out, nil
}

func (r redactor) occursIn(line []byte) bool {
	for _, n := range r.needles {
		if bytes.Contains(line, n) {
			return true
		}
	}
	return false
}

// value returns v with the secrets replaced in every string it holds.
func (r redactor) value(v any) any {
	switch v := v.(type) {
	case string:
		return r.String(v)
	case []any:
		for i, e := range v {
			v[i] = r.value(e)
		}
	case map[string]any:
		for k, e := range v {
			v[k] = r.value(e)
		}
	}
	return v
}

// Meta returns m with the secrets replaced in every text field.
func (r redactor) Meta(m Meta) Meta {
	if r.replacer == nil {
		return m
	}
	m.Cwd = r.String(m.Cwd)
	m.Title = r.String(m.Title)
	m.Model = r.String(m.Model)
	m.Preset = r.String(m.Preset)
	m.Effort = r.String(m.Effort)
	if m.AdditionalDirectories != nil {
		dirs := make([]string, len(m.AdditionalDirectories))
		for i, d := range m.AdditionalDirectories {
			dirs[i] = r.String(d)
		}
		m.AdditionalDirectories = dirs
	}
	return m
}
