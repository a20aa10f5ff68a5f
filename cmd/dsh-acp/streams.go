package main

import "io"

// streams are the program's standard streams.
type streams struct {
	in  io.Reader
	out io.Writer
	err io.Writer
}

// environ looks up environment variables.
type environ func(string) (string, bool)

// get returns the variable's value, or "".
func (e environ) get(name string) string {
	v, _ := e(name)
	return v
}
