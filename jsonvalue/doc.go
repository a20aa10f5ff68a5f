// Package jsonvalue holds lossless, ordered, immutable JSON.
//
// The project hands JSON around as canonical text in a Go string and parses
// it into a [Value] when it needs to look inside. Lossless means every number
// is a finite float64 other than negative zero, so text, [Value] and
// JavaScript's view of the same data always agree.
//
//	v, err := jsonvalue.Parse(`{"path": "/tmp/a.txt", "limit": 1e2, "path": "/tmp/b.txt"}`)
//	if err != nil {
//		return err // a *SyntaxError, or an error wrapping ErrNotLossless
//	}
//	path, _ := v.Lookup("path")
//	fmt.Println(path.Text())    // /tmp/b.txt (the last duplicate wins...)
//	fmt.Println(v.Canonical())  // {"path":"/tmp/b.txt","limit":100} (...in the first position)
//
//	text, err := jsonvalue.Marshal(struct{ N float64 }{math.Copysign(0, -1)})
//	// err wraps ErrNotLossless: negative zero has no lossless spelling.
//
// Parsing allocates one slice per array or object and nothing per scalar
// unless a string holds escapes; a parsed Value may keep substrings of the
// input text alive.
package jsonvalue
