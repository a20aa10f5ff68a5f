package schema

import "strconv"

// This file holds every diagnostic text, copied exactly from the reference
// implementation (json-schema.ts): callers and tests compare them verbatim.

// Subset-check messages; p is the schema path, e.g. "schema.properties.a".

func notSchemaObject(p string) string { return p + " must be a schema object" }

func unsupportedKeyword(p, k string) string {
	return p + "." + k + " is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)"
}

func annotationNotString(p, k string) string { return p + "." + k + " must be a string" }

func typeAndOneOf(p string) string { return p + " cannot declare both type and oneOf" }

func requiresTypeOrOneOf(p, k string) string { return p + "." + k + " requires type or oneOf" }

func oneOfTooShort(p string) string { return p + ".oneOf must be an array of at least two schemas" }

func besideOneOf(p, k string) string { return p + "." + k + " is not supported beside oneOf" }

func typeArray(p string) string {
	return p + ".type must be a single type string (type arrays are not supported)"
}

func unknownType(p string) string {
	return p + ".type must be one of object/array/string/number/integer/boolean/null"
}

func notOnType(p, k string, t kind) string {
	return p + "." + k + ` is not supported on type "` + t.String() + `"`
}

func propertiesNotObject(p string) string { return p + ".properties must be an object of schemas" }

func requiredNotStrings(p string) string { return p + ".required must be an array of strings" }

func requiredNotDeclared(p, k string) string {
	return p + `.required names "` + k + `" which is not in properties`
}

func additionalNotBoolean(p string) string { return p + ".additionalProperties must be a boolean" }

func enumInvalid(p string, t kind) string {
	return p + ".enum must be a non-empty array of " + t.String() + " values"
}

func constInvalid(p string, t kind) string { return p + ".const must be a " + t.String() + " value" }

func constNotInEnum(p string) string {
	return p + ".const must be one of " + p + ".enum when both are declared"
}

const notObjectRooted = `schema.type must be "object" (structured output is object-rooted)`

// Value-validation messages; p is the value path, where "" is the implicit
// arguments root.

// quote renders a value path for a message: quoted, with the empty path
// labelled "arguments".
func quote(p string) string {
	if p == "" {
		p = "arguments"
	}
	return `"` + p + `"`
}

// mustBe is `"p" must be <what>`, for type mismatches ("a string", "null")
// and const mismatches (the const's JSON text).
func mustBe(p, what string) string { return quote(p) + " must be " + what }

func mustBeOneOf(p, enumJSON string) string { return quote(p) + " must be one of " + enumJSON }

func missingRequired(child string) string { return `missing required property "` + child + `"` }

func notDeclared(child string) string {
	return `"` + child + `" is not a declared property (additionalProperties: false)`
}

func oneOfMatched(p string, matched int) string {
	return quote(p) + " must match exactly one oneOf branch (matched " + strconv.Itoa(matched) + ")"
}

func notLosslessValue(p string) string { return quote(p) + " must be a lossless JSON value" }
