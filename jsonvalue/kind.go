package jsonvalue

// Kind is the JSON type of a [Value].
type Kind uint8

// The kinds of JSON value. KindInvalid is the kind of the zero [Value]; Parse
// never returns it.
const (
	KindInvalid Kind = iota
	KindNull
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

// String returns the JSON name of the kind as JavaScript's typeof-style
// vocabulary spells it: "null", "boolean", "number", "string", "array",
// "object", or "invalid" for KindInvalid and unknown kinds.
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindBool:
		return "boolean"
	case KindNumber:
		return "number"
	case KindString:
		return "string"
	case KindArray:
		return "array"
	case KindObject:
		return "object"
	default:
		return "invalid"
	}
}
