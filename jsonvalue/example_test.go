package jsonvalue_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
)

func ExampleParse() {
	v, err := jsonvalue.Parse(`{"path": "/tmp/a.txt", "limit": 1e2, "path": "/tmp/b.txt"}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	path, _ := v.Lookup("path")
	fmt.Println(path.Text())
	for key, value := range v.Members() {
		fmt.Println(key, value.Kind(), value)
	}
	// Output:
	// /tmp/b.txt
	// path string "/tmp/b.txt"
	// limit number 100
}

func ExampleParse_notLossless() {
	_, err := jsonvalue.Parse(`{"x": -0.0}`)
	fmt.Println(errors.Is(err, jsonvalue.ErrNotLossless))
	fmt.Println(err)
	// Output:
	// true
	// jsonvalue: number -0.0 at offset 6 is negative zero: value is not lossless JSON
}

func ExampleCanonicalize() {
	text, err := jsonvalue.Canonicalize("{ \"b\": [1.0, 1e21, 0.0000001], \"a\": \"<tag> & \\u00e9\" }")
	fmt.Println(text, err)
	// Output:
	// {"b":[1,1e+21,1e-7],"a":"<tag> & é"} <nil>
}

func ExampleMarshal() {
	text, err := jsonvalue.Marshal(map[string]any{"ok": true, "n": 2.50})
	fmt.Println(text, err)
	_, err = jsonvalue.Marshal(math.Inf(1))
	fmt.Println(errors.Is(err, jsonvalue.ErrNotLossless))
	// Output:
	// {"n":2.5,"ok":true} <nil>
	// true
}
