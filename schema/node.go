package schema

import (
	"math"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
)

// kind is what a compiled node constrains: any JSON, a oneOf union, or one
// of the seven JSON Schema types.
type kind uint8

const (
	anyKind kind = iota
	oneOfKind
	objectKind
	arrayKind
	stringKind
	numberKind
	integerKind
	booleanKind
	nullKind
)

// typeKind maps a JSON Schema type name to its kind.
func typeKind(name string) (kind, bool) {
	switch name {
	case "object":
		return objectKind, true
	case "array":
		return arrayKind, true
	case "string":
		return stringKind, true
	case "number":
		return numberKind, true
	case "integer":
		return integerKind, true
	case "boolean":
		return booleanKind, true
	case "null":
		return nullKind, true
	}
	return anyKind, false
}

// String returns the JSON Schema type name of a typed kind.
func (k kind) String() string {
	switch k {
	case objectKind:
		return "object"
	case arrayKind:
		return "array"
	case stringKind:
		return "string"
	case numberKind:
		return "number"
	case integerKind:
		return "integer"
	case booleanKind:
		return "boolean"
	case nullKind:
		return "null"
	case oneOfKind:
		return "oneOf"
	}
	return "any"
}

func (k kind) isScalar() bool { return k >= stringKind }

// propertyIndexThreshold is the property count above which an object node
// indexes its property names.
const propertyIndexThreshold = 16

// node is one compiled, immutable schema node.
type node struct {
	kind kind
	// branches of a oneOf node.
	branches []*node
	// properties of an object node, in declaration order.
	properties []property
	// propertyIndex maps names to positions in properties for wide objects.
	propertyIndex map[string]int
	// required property names of an object node, in declaration order.
	required []string
	// closed is additionalProperties: false.
	closed bool
	// items of an array node; nil accepts any item.
	items *node
	// enum of a scalar node (an array Value); the zero Value when absent.
	enum jsonvalue.Value
	// constant of a scalar node; the zero Value when absent.
	constant jsonvalue.Value
}

type property struct {
	name   string
	schema *node
}

// declares reports whether an object node declares a property name.
func (n *node) declares(name string) bool {
	if n.propertyIndex != nil {
		_, ok := n.propertyIndex[name]
		return ok
	}
	for i := range n.properties {
		if n.properties[i].name == name {
			return true
		}
	}
	return false
}

// scalarMatches reports whether v is a value of scalar type k.
func scalarMatches(k kind, v jsonvalue.Value) bool {
	switch k {
	case stringKind:
		return v.Kind() == jsonvalue.KindString
	case numberKind:
		return v.Kind() == jsonvalue.KindNumber
	case integerKind:
		return isInteger(v)
	case booleanKind:
		return v.Kind() == jsonvalue.KindBool
	case nullKind:
		return v.Kind() == jsonvalue.KindNull
	}
	return false
}

// isInteger reports whether v is a number with no fractional part, as
// JavaScript's Number.isInteger (parsed numbers are always finite).
func isInteger(v jsonvalue.Value) bool {
	return v.Kind() == jsonvalue.KindNumber && v.Float() == math.Trunc(v.Float())
}

// sameScalar is JavaScript's === on two scalar values (parsed JSON has no
// NaN or negative zero, so === and SameValueZero agree).
func sameScalar(a, b jsonvalue.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case jsonvalue.KindNull:
		return true
	case jsonvalue.KindBool:
		return a.Bool() == b.Bool()
	case jsonvalue.KindNumber:
		return a.Float() == b.Float()
	case jsonvalue.KindString:
		return a.Text() == b.Text()
	}
	return false
}

// enumContains reports whether the enum array holds v.
func enumContains(enum, v jsonvalue.Value) bool {
	for _, e := range enum.Elements() {
		if sameScalar(e, v) {
			return true
		}
	}
	return false
}
