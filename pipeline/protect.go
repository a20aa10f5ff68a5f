package pipeline

import "github.com/dsh-acp/dsh-acp/registry"

// protect runs f and turns a panic inside it into an error.
func protect(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = registry.ErrorFromPanic(r)
		}
	}()
	return f()
}
