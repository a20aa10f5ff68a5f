package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
)

// inferParameters infers the JSON Schema of A, lets refine adjust it, and
// emits it in the supported subset with the key order models are shown:
// optional Go fields (pointers, slices) lose their "null" alternative, and
// the root object stays open to extra keys, as model-facing parameters do.
func inferParameters[A any](refine func(*jsonschema.Schema)) (jsonvalue.Value, error) {
	if t := reflect.TypeFor[A](); t.Kind() != reflect.Struct {
		return jsonvalue.Value{}, fmt.Errorf("argument type %s must be a struct", t)
	}
	s, err := jsonschema.For[A](nil)
	if err != nil {
		return jsonvalue.Value{}, fmt.Errorf("infer parameter schema: %w", err)
	}
	if refine != nil {
		refine(s)
	}
	root := *s
	root.AdditionalProperties = nil
	if root.Properties == nil {
		root.Properties = map[string]*jsonschema.Schema{}
	}
	var buf bytes.Buffer
	if err := emitSchema(&buf, &root, "parameters"); err != nil {
		return jsonvalue.Value{}, err
	}
	return jsonvalue.Parse(buf.String())
}

// emitSchema writes s as subset JSON Schema: object nodes as type,
// annotations, additionalProperties, properties, required; array nodes as
// type, annotations, items; scalar nodes as type, annotations, enum, const;
// oneOf nodes as oneOf then annotations.
func emitSchema(buf *bytes.Buffer, s *jsonschema.Schema, path string) error {
	if err := checkLeftovers(s, path); err != nil {
		return err
	}
	typ, err := singleType(s, path)
	if err != nil {
		return err
	}
	w := objectWriter{buf: buf}
	w.open()
	if len(s.OneOf) > 0 {
		w.key("oneOf")
		buf.WriteByte('[')
		for i, branch := range s.OneOf {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := emitSchema(buf, branch, fmt.Sprintf("%s.oneOf[%d]", path, i)); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	}
	if typ != "" {
		w.field("type", typ)
	}
	if err := emitAnnotations(&w, s); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	switch typ {
	case "object":
		if err := emitObject(&w, s, path); err != nil {
			return err
		}
	case "array":
		if s.Items != nil {
			w.key("items")
			if err := emitSchema(buf, s.Items, path+".items"); err != nil {
				return err
			}
		}
	}
	if len(s.Enum) > 0 {
		w.field("enum", s.Enum)
	}
	if s.Const != nil {
		w.field("const", *s.Const)
	}
	w.close()
	return w.err
}

func emitAnnotations(w *objectWriter, s *jsonschema.Schema) error {
	if s.Description != "" {
		w.field("description", s.Description)
	}
	if s.Title != "" {
		w.field("title", s.Title)
	}
	if len(s.Default) > 0 {
		w.field("default", s.Default)
	}
	if len(s.Examples) > 0 {
		w.field("examples", s.Examples)
	}
	return w.err
}

func emitObject(w *objectWriter, s *jsonschema.Schema, path string) error {
	if s.AdditionalProperties != nil {
		// The subset takes only a boolean; a value schema (a Go map) opens the
		// object.
		w.field("additionalProperties", !isFalseSchema(s.AdditionalProperties))
	}
	if s.Properties != nil {
		w.key("properties")
		inner := objectWriter{buf: w.buf}
		inner.open()
		for _, name := range propertyOrder(s) {
			inner.key(name)
			if err := emitSchema(w.buf, s.Properties[name], path+"."+name); err != nil {
				return err
			}
		}
		inner.close()
	}
	if len(s.Required) > 0 {
		w.field("required", s.Required)
	}
	return w.err
}

// propertyOrder lists the properties in declaration order, then any the
// order does not name, sorted.
func propertyOrder(s *jsonschema.Schema) []string {
	order := make([]string, 0, len(s.Properties))
	seen := make(map[string]bool, len(s.Properties))
	for _, name := range s.PropertyOrder {
		if _, ok := s.Properties[name]; ok && !seen[name] {
			order = append(order, name)
			seen[name] = true
		}
	}
	var rest []string
	for name := range s.Properties {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(order, rest...)
}

// singleType narrows s's type to one string: ["null", T] becomes T.
func singleType(s *jsonschema.Schema, path string) (string, error) {
	if s.Type != "" {
		return s.Type, nil
	}
	var types []string
	for _, t := range s.Types {
		if t != "null" {
			types = append(types, t)
		}
	}
	switch len(types) {
	case 0:
		if len(s.Types) > 0 {
			return "null", nil
		}
		return "", nil
	case 1:
		return types[0], nil
	default:
		return "", fmt.Errorf("%s has several types %v; the supported subset takes one (use oneOf)", path, s.Types)
	}
}

// isFalseSchema reports whether s is the schema that matches nothing.
func isFalseSchema(s *jsonschema.Schema) bool {
	data, err := json.Marshal(s)
	return err == nil && string(data) == "false"
}

// checkLeftovers fails when s uses a keyword the subset cannot express.
func checkLeftovers(s *jsonschema.Schema, path string) error {
	rest := *s
	rest.Type, rest.Types = "", nil
	rest.Description, rest.Title, rest.Default, rest.Examples = "", "", nil, nil
	rest.Enum, rest.Const = nil, nil
	rest.Properties, rest.PropertyOrder, rest.Required, rest.AdditionalProperties = nil, nil, nil, nil
	rest.Items, rest.OneOf = nil, nil
	data, err := json.Marshal(&rest)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if string(data) != "true" && string(data) != "{}" {
		return fmt.Errorf("%s uses keywords outside the supported subset: %s", path, data)
	}
	return nil
}

// objectWriter writes one JSON object's members in order.
type objectWriter struct {
	buf   *bytes.Buffer
	count int
	err   error
}

func (w *objectWriter) open()  { w.buf.WriteByte('{') }
func (w *objectWriter) close() { w.buf.WriteByte('}') }

func (w *objectWriter) key(name string) {
	if w.count > 0 {
		w.buf.WriteByte(',')
	}
	w.count++
	data, _ := json.Marshal(name)
	w.buf.Write(data)
	w.buf.WriteByte(':')
}

func (w *objectWriter) field(name string, value any) {
	w.key(name)
	data, err := json.Marshal(value)
	if err != nil {
		w.err = errors.Join(w.err, fmt.Errorf("%s: %w", name, err))
		w.buf.WriteString("null")
		return
	}
	w.buf.Write(data)
}
