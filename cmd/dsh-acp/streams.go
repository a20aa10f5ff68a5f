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

// detach returns a reader of r's bytes whose Close ends a pending Read at
// once. A read of a blocking stdin cannot be interrupted (closing the file
// does not wake it), and a server that waits for it to end never stops
// while the client keeps stdin open; so a goroutine copies r into a pipe,
// and Close closes the pipe. That goroutine ends when r does, or stays
// blocked on r until the process exits: nothing waits for it.
func detach(r io.Reader) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, r)
		pw.CloseWithError(err) // nil: the reader sees io.EOF
	}()
	return pr
}
