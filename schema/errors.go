package schema

import "strings"

// Error reports a schema outside the supported subset. It lists every
// violation found, in walk order, rather than stopping at the first.
type Error struct {
	// Violations holds one message per problem, e.g.
	// `schema.properties.a.type must be one of object/array/string/number/integer/boolean/null`.
	Violations []string
}

// Error returns "unsupported JSON schema: " followed by the violations
// joined by "; ".
func (e *Error) Error() string {
	return "unsupported JSON schema: " + strings.Join(e.Violations, "; ")
}

// ErrorCode returns "UNSUPPORTED_SCHEMA", the code callers route on.
func (e *Error) ErrorCode() string { return "UNSUPPORTED_SCHEMA" }
