package jsonvalue

// AppendCanonical appends the canonical text of v to dst and returns the
// extended buffer. The zero Value appends nothing.
//
// Canonical text is compact (no insignificant whitespace), keeps object
// members in document order, formats numbers as encoding/json formats a
// float64 (1.0 → 1, 1e2 → 100, 1e21 → 1e+21, 0.0000001 → 1e-7), and escapes
// strings as encoding/json does with HTML escaping off. Two values with the
// same canonical text are the same JSON value, member order included.
func (v Value) AppendCanonical(dst []byte) []byte {
	switch v.kind {
	case KindNull:
		return append(dst, "null"...)
	case KindBool:
		if v.boolean {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case KindNumber:
		return appendNumber(dst, v.number)
	case KindString:
		return appendQuoted(dst, v.text)
	case KindArray:
		dst = append(dst, '[')
		for i := range v.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = v.items[i].Value.AppendCanonical(dst)
		}
		return append(dst, ']')
	case KindObject:
		dst = append(dst, '{')
		for i := range v.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendQuoted(dst, v.items[i].Key)
			dst = append(dst, ':')
			dst = v.items[i].Value.AppendCanonical(dst)
		}
		return append(dst, '}')
	}
	return dst
}

// Canonical returns the canonical text of v (see [Value.AppendCanonical]),
// or "" for the zero Value.
func (v Value) Canonical() string {
	return string(v.AppendCanonical(nil))
}

// String returns the canonical text of v, so that fmt prints a Value as
// JSON. For the contents of a string value use [Value.Text].
func (v Value) String() string { return v.Canonical() }

// Canonicalize parses text and returns its canonical text. It fails exactly
// when [Parse] does, with the same errors.
func Canonicalize(text string) (string, error) {
	v, err := Parse(text)
	if err != nil {
		return "", err
	}
	return v.Canonical(), nil
}
