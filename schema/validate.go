package schema

import "github.com/dsh-acp/dsh-acp/jsonvalue"

// Validate checks v against the schema and returns every violation in walk
// order (validateJsonSchemaValue); nil means v is valid. It never fails or
// panics, whatever v holds.
//
// path labels the root in messages. Tool arguments use "": the root then
// reads "arguments" (`"arguments" must be an object`) and nested paths carry
// no leading dot (`config.host`, `tags[1]`, `servers[1].host`). Output
// values use "value" (`"value.items[0]" must be a string`).
//
// Within an object, violations come in this order: missing required
// properties (in `required` order), violations of present properties (in
// `properties` order), then undeclared properties of a closed object (in the
// value's member order). A scalar reports its type first, then `enum`, then
// `const`, at most one of them. A oneOf reports only how many branches
// matched, never the branches' own violations.
func (s *Schema) Validate(v jsonvalue.Value, path string) []string {
	var buf [128]byte
	c := validator{}
	c.path.buf = append(buf[:0], path...)
	c.check(s.root, v)
	return c.violations
}

// validator walks one value against one schema.
type validator struct {
	path       path
	violations []string
	// quiet is set while a oneOf branch is tried: the first violation sets
	// failed and ends the walk, and no message is built.
	quiet  bool
	failed bool
}

// reporting records a violation and reports whether its message is wanted.
func (c *validator) reporting() bool {
	if c.quiet {
		c.failed = true
		return false
	}
	return true
}

// stopped reports whether a quiet walk has already failed.
func (c *validator) stopped() bool { return c.quiet && c.failed }

func (c *validator) report(msg string) { c.violations = append(c.violations, msg) }

// matches reports whether v satisfies n, without reporting anything.
func (c *validator) matches(n *node, v jsonvalue.Value) bool {
	quiet, failed := c.quiet, c.failed
	c.quiet, c.failed = true, false
	c.check(n, v)
	ok := !c.failed
	c.quiet, c.failed = quiet, failed
	return ok
}

func (c *validator) check(n *node, v jsonvalue.Value) {
	switch n.kind {
	case anyKind:
		// Every parsed Value is lossless JSON; only the zero Value is not.
		if v.Kind() == jsonvalue.KindInvalid && c.reporting() {
			c.report(notLosslessValue(c.path.String()))
		}
	case oneOfKind:
		matched := 0
		for _, branch := range n.branches {
			if c.matches(branch, v) {
				matched++
			}
		}
		if matched != 1 && c.reporting() {
			c.report(oneOfMatched(c.path.String(), matched))
		}
	case objectKind:
		c.object(n, v)
	case arrayKind:
		c.array(n, v)
	case stringKind:
		c.scalar(n, v, v.Kind() == jsonvalue.KindString, "a string")
	case numberKind:
		c.scalar(n, v, v.Kind() == jsonvalue.KindNumber, "a number")
	case integerKind:
		c.scalar(n, v, isInteger(v), "an integer")
	case booleanKind:
		c.scalar(n, v, v.Kind() == jsonvalue.KindBool, "a boolean")
	case nullKind:
		c.scalar(n, v, v.Kind() == jsonvalue.KindNull, "null")
	}
}

// scalar reports a type mismatch (`must be <typeName>`), else an enum miss,
// else a const miss.
func (c *validator) scalar(n *node, v jsonvalue.Value, typeOK bool, typeName string) {
	switch {
	case !typeOK:
		if c.reporting() {
			c.report(mustBe(c.path.String(), typeName))
		}
	case n.enum.Kind() == jsonvalue.KindArray && !enumContains(n.enum, v):
		if c.reporting() {
			c.report(mustBeOneOf(c.path.String(), n.enum.Canonical()))
		}
	case n.constant.Kind() != jsonvalue.KindInvalid && !sameScalar(n.constant, v):
		if c.reporting() {
			c.report(mustBe(c.path.String(), n.constant.Canonical()))
		}
	}
}

func (c *validator) object(n *node, v jsonvalue.Value) {
	if v.Kind() != jsonvalue.KindObject {
		if c.reporting() {
			c.report(mustBe(c.path.String(), "an object"))
		}
		return
	}
	for _, name := range n.required {
		if _, ok := v.Lookup(name); !ok && c.reporting() {
			m := c.path.addProperty(name)
			c.report(missingRequired(c.path.String()))
			c.path.reset(m)
		}
	}
	for i := range n.properties {
		if c.stopped() {
			return
		}
		p := &n.properties[i]
		child, ok := v.Lookup(p.name)
		if !ok {
			continue
		}
		m := c.path.addProperty(p.name)
		c.check(p.schema, child)
		c.path.reset(m)
	}
	if !n.closed {
		return
	}
	for i := range v.Len() {
		if c.stopped() {
			return
		}
		if key := v.Member(i).Key; !n.declares(key) && c.reporting() {
			m := c.path.addProperty(key)
			c.report(notDeclared(c.path.String()))
			c.path.reset(m)
		}
	}
}

func (c *validator) array(n *node, v jsonvalue.Value) {
	if v.Kind() != jsonvalue.KindArray {
		if c.reporting() {
			c.report(mustBe(c.path.String(), "an array"))
		}
		return
	}
	if n.items == nil {
		return
	}
	for i := range v.Len() {
		if c.stopped() {
			return
		}
		m := c.path.addIndex("", i)
		c.check(n.items, v.Index(i))
		c.path.reset(m)
	}
}
