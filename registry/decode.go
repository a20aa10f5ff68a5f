package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// decodeStrict unmarshals text into dst, refusing unknown object keys and
// trailing data.
func decodeStrict(text string, dst any) error {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the value")
	}
	return nil
}

// decodeViolation words a decoding failure of arguments that passed schema
// validation (a number too large for its Go type, say) as a violation.
func decodeViolation(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return fmt.Sprintf("%q cannot hold %s (Go type %s)", typeErr.Field, typeErr.Value, typeErr.Type)
	}
	return "arguments do not decode: " + err.Error()
}
