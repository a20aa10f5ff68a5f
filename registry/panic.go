package registry

import (
	"errors"
	"fmt"
)

// ErrorFromPanic turns a recovered panic value into an error whose message
// is what the model should read: an error's own message, a string as is, and
// anything else as fmt prints it.
func ErrorFromPanic(r any) error {
	switch v := r.(type) {
	case error:
		return v
	case string:
		return errors.New(v)
	default:
		return fmt.Errorf("%v", v)
	}
}

// guard runs f and turns a panic inside it into an error.
func guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = ErrorFromPanic(r)
		}
	}()
	return f()
}
