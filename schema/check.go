package schema

import "github.com/dsh-acp/dsh-acp/jsonvalue"

// This file is the subset check (assertSupportedJsonSchema): one walk that
// collects every violation in the reference's walk order and, along the way,
// builds the compiled node tree.

// siblingKeywords returns the constraint keywords that need a type (and may
// not sit beside oneOf), in the order their violations are reported.
func siblingKeywords() [6]string {
	return [...]string{"properties", "required", "additionalProperties", "items", "enum", "const"}
}

// isKeyword reports whether key belongs to the supported vocabulary.
func isKeyword(key string) bool {
	switch key {
	case "type", "oneOf", "properties", "required", "additionalProperties", "items", "enum", "const",
		"description", "title", "default", "examples":
		return true
	}
	return false
}

// allowedOn reports whether a sibling keyword may appear on a node of kind t.
func allowedOn(keyword string, t kind) bool {
	switch keyword {
	case "properties", "required", "additionalProperties":
		return t == objectKind
	case "items":
		return t == arrayKind
	}
	return t.isScalar() // enum, const
}

// checker walks one schema.
type checker struct {
	path       path
	violations []string
}

func (c *checker) report(msg string) { c.violations = append(c.violations, msg) }

// node checks the schema node v at c.path and returns its compiled form,
// which is meaningful only when the whole walk reports no violation.
func (c *checker) node(v jsonvalue.Value) *node {
	if v.Kind() != jsonvalue.KindObject {
		c.report(notSchemaObject(c.path.String()))
		return nil
	}
	for key := range v.Members() {
		// Annotations need only be lossless JSON, which every parsed Value
		// is, so "annotation must be lossless JSON data" cannot arise here.
		if !isKeyword(key) {
			c.report(unsupportedKeyword(c.path.String(), key))
		}
	}
	for _, key := range [...]string{"description", "title"} {
		if a, ok := v.Lookup(key); ok && a.Kind() != jsonvalue.KindString {
			c.report(annotationNotString(c.path.String(), key))
		}
	}

	typ, hasType := v.Lookup("type")
	oneOf, hasOneOf := v.Lookup("oneOf")
	switch {
	case hasType && hasOneOf:
		c.report(typeAndOneOf(c.path.String()))
		return nil
	case hasOneOf:
		return c.oneOf(v, oneOf)
	case !hasType:
		for _, key := range siblingKeywords() {
			if _, ok := v.Lookup(key); ok {
				c.report(requiresTypeOrOneOf(c.path.String(), key))
			}
		}
		return &node{kind: anyKind}
	}

	k, ok := typeKind(typ.Text())
	if !ok || typ.Kind() != jsonvalue.KindString {
		if typ.Kind() == jsonvalue.KindArray {
			c.report(typeArray(c.path.String()))
		} else {
			c.report(unknownType(c.path.String()))
		}
		return nil
	}
	for _, key := range siblingKeywords() {
		if _, ok := v.Lookup(key); ok && !allowedOn(key, k) {
			c.report(notOnType(c.path.String(), key, k))
		}
	}
	n := &node{kind: k}
	switch {
	case k == objectKind:
		c.object(n, v)
	case k == arrayKind:
		if items, ok := v.Lookup("items"); ok {
			m := c.path.add(".items")
			n.items = c.node(items)
			c.path.reset(m)
		}
	default:
		c.scalar(n, v)
	}
	return n
}

// oneOf checks the branches, then the keywords that may not sit beside them.
func (c *checker) oneOf(v, branches jsonvalue.Value) *node {
	n := &node{kind: oneOfKind}
	if branches.Kind() != jsonvalue.KindArray || branches.Len() < 2 {
		c.report(oneOfTooShort(c.path.String()))
	} else {
		n.branches = make([]*node, branches.Len())
		for i, branch := range branches.Elements() {
			m := c.path.addIndex(".oneOf", i)
			n.branches[i] = c.node(branch)
			c.path.reset(m)
		}
	}
	for _, key := range siblingKeywords() {
		if _, ok := v.Lookup(key); ok {
			c.report(besideOneOf(c.path.String(), key))
		}
	}
	return n
}

// object checks properties (descending into each), then required and
// additionalProperties.
func (c *checker) object(n *node, v jsonvalue.Value) {
	properties, hasProperties := v.Lookup("properties")
	if hasProperties {
		if properties.Kind() != jsonvalue.KindObject {
			c.report(propertiesNotObject(c.path.String()))
		} else {
			n.properties = make([]property, 0, properties.Len())
			for name, schema := range properties.Members() {
				m := c.path.add(".properties.")
				c.path.add(name)
				n.properties = append(n.properties, property{name: name, schema: c.node(schema)})
				c.path.reset(m)
			}
			if len(n.properties) > propertyIndexThreshold {
				n.propertyIndex = make(map[string]int, len(n.properties))
				for i, p := range n.properties {
					n.propertyIndex[p.name] = i
				}
			}
		}
	}
	if required, ok := v.Lookup("required"); ok {
		if !isStringArray(required) {
			c.report(requiredNotStrings(c.path.String()))
		} else {
			n.required = make([]string, 0, required.Len())
			for _, name := range required.Elements() {
				if _, declared := properties.Lookup(name.Text()); !declared {
					c.report(requiredNotDeclared(c.path.String(), name.Text()))
				}
				n.required = append(n.required, name.Text())
			}
		}
	}
	if additional, ok := v.Lookup("additionalProperties"); ok {
		if additional.Kind() != jsonvalue.KindBool {
			c.report(additionalNotBoolean(c.path.String()))
		}
		n.closed = additional.Kind() == jsonvalue.KindBool && !additional.Bool()
	}
}

func isStringArray(v jsonvalue.Value) bool {
	if v.Kind() != jsonvalue.KindArray {
		return false
	}
	for _, e := range v.Elements() {
		if e.Kind() != jsonvalue.KindString {
			return false
		}
	}
	return true
}

// scalar checks that enum and const hold values of the node's type and
// agree with each other.
func (c *checker) scalar(n *node, v jsonvalue.Value) {
	enum, hasEnum := v.Lookup("enum")
	enumValid := hasEnum && enum.Kind() == jsonvalue.KindArray && enum.Len() > 0
	if enumValid {
		for _, e := range enum.Elements() {
			if !scalarMatches(n.kind, e) {
				enumValid = false
				break
			}
		}
	}
	if hasEnum && !enumValid {
		c.report(enumInvalid(c.path.String(), n.kind))
	}
	if enumValid {
		n.enum = enum
	}
	if constant, ok := v.Lookup("const"); ok {
		switch {
		case !scalarMatches(n.kind, constant):
			c.report(constInvalid(c.path.String(), n.kind))
		case enumValid && !enumContains(enum, constant):
			c.report(constNotInEnum(c.path.String()))
		}
		n.constant = constant
	}
}
