package acp

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// schemaFile is the pinned ACP v1 schema (acptest.SchemaPath, from this
// package's directory); unstableSchemaFile its unstable sibling, which
// also defines what is not part of the spec yet.
const (
	schemaFile         = "../e2e/node_modules/@agentclientprotocol/sdk/schema/v1/schema.json"
	unstableSchemaFile = "../e2e/node_modules/@agentclientprotocol/sdk/schema/v1/schema.unstable.json"
)

// notYetSent lists the session/update variants of the pinned schemas
// (stable and unstable) that the vocabulary does not cover yet: the
// unstable subagent updates.
var notYetSent = []string{"subagent_update", "session_message", "session_message_chunk"}

// schemaDef is the part of a schema definition the shape test reads.
type schemaDef struct {
	Type       any                  `json:"type"`
	Ref        string               `json:"$ref"`
	Const      any                  `json:"const"`
	Properties map[string]schemaDef `json:"properties"`
	Required   []string             `json:"required"`
	AllOf      []schemaDef          `json:"allOf"`
	AnyOf      []schemaDef          `json:"anyOf"`
	OneOf      []schemaDef          `json:"oneOf"`
	Items      *schemaDef           `json:"items"`
}

func loadSchema(t *testing.T, file string) map[string]schemaDef {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Skipf("schema not installed (make deps): %v", err)
	}
	var doc struct {
		Defs map[string]schemaDef `json:"$defs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Defs
}

// wireOf returns the wire form an outbound value is encoded as.
func wireOf(t *testing.T, v any) any {
	t.Helper()
	var (
		w   any
		err error
	)
	switch v := v.(type) {
	case Update:
		w, err = v.wire()
	case ContentBlock:
		w, err = v.contentWire()
	case ToolCallContent:
		w, err = v.toolContentWire()
	case SessionConfigOption:
		w = v.configOptionWire()
	case PlanUpdateContent:
		w = v.planContentWire()
	default:
		w = v
	}
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestVocabularyMatchesSchema checks every outbound type against its
// definition in the pinned schema: the same JSON members (plus the
// variant's discriminator, with the schema's value), required members
// always written, optional ones omitted when empty (or a nullable pointer,
// written as null), and each member's JSON kind. It also fails when the
// schema has a session/update variant the vocabulary does not know.
func TestVocabularyMatchesSchema(t *testing.T) {
	checkVocabulary(t, loadSchema(t, schemaFile), stableCases(), nil)
}

// stableCases are the outbound values of the stable schema.
func stableCases() []shapeCase {
	one := 1
	return []shapeCase{
		{"ContentChunk", "sessionUpdate", AgentMessageChunk{Content: Text("x")}},
		{"ContentChunk", "sessionUpdate", AgentThoughtChunk{Content: Text("x")}},
		{"ContentChunk", "sessionUpdate", UserMessageChunk{Content: ImageContent{}}},
		{"ToolCall", "sessionUpdate", ToolCall{}},
		{"ToolCallUpdate", "sessionUpdate", ToolCallUpdate{}},
		{"Plan", "sessionUpdate", Plan{}},
		{"AvailableCommandsUpdate", "sessionUpdate", AvailableCommandsUpdate{}},
		{"CurrentModeUpdate", "sessionUpdate", CurrentModeUpdate{}},
		{"ConfigOptionUpdate", "sessionUpdate", ConfigOptionUpdate{}},
		{"SessionInfoUpdate", "sessionUpdate", SessionInfoUpdate{}},
		{"UsageUpdate", "sessionUpdate", UsageUpdate{}},
		{"Notice", "sessionUpdate", Notice{Title: "x"}},
		{"CompactionUpdate", "sessionUpdate", CompactionUpdate{}},
		{"CompactionSummaryChunk", "sessionUpdate", CompactionSummaryChunk{Content: Text("x")}},
		{"TextContent", "type", TextContent{}},
		{"ImageContent", "type", ImageContent{}},
		{"AudioContent", "type", AudioContent{}},
		{"ResourceLink", "type", ResourceLink{}},
		{"EmbeddedResource", "type", EmbeddedResource{Resource: TextResourceContents{}}},
		{"TextResourceContents", "", TextResourceContents{}},
		{"BlobResourceContents", "", BlobResourceContents{}},
		{"Annotations", "", Annotations{}},
		{"Content", "type", ContentItem{Content: Text("x")}},
		{"Diff", "type", Diff{}},
		{"Terminal", "type", Terminal{}},
		{"ToolCallLocation", "", ToolCallLocation{Line: &one}},
		{"PlanEntry", "", PlanEntry{}},
		{"AvailableCommand", "", AvailableCommand{}},
		{"UnstructuredCommandInput", "", UnstructuredCommandInput{}},
		{"Cost", "", Cost{}},
		{"SessionConfigOption+SessionConfigSelect", "type", SelectConfigOption{}},
		{"SessionConfigOption+SessionConfigBoolean", "type", BooleanConfigOption{}},
		{"SessionConfigSelectOption", "", ConfigSelectOption{}},
		{"SessionConfigSelectGroup", "", ConfigSelectGroup{}},
		{"RequestPermissionRequest", "", requestPermissionWire{}},
		{"ToolCallUpdate", "", toolCallBodyWire{}},
		{"PermissionOption", "", PermissionOption{}},
		{"SessionNotification", "", notificationWire{}},
	}
}

// unstableUpdates are the cases of the unstable updates the vocabulary
// has, checked against the unstable schema.
func unstableUpdates() []shapeCase {
	return []shapeCase{
		{"PlanUpdate", "sessionUpdate", PlanUpdate{Plan: PlanItems{}}},
		{"PlanRemoved", "sessionUpdate", PlanRemoved{}},
		{"PlanItems", "type", PlanItems{}},
		{"PlanMarkdown", "type", PlanMarkdown{}},
	}
}

// TestUnstableVocabularyMatchesSchema is TestVocabularyMatchesSchema for
// what the vocabulary sends of the unstable schema (to the clients that
// advertise it): the unstable variants of session/update it covers, and
// those it does not yet, in notYetSent.
func TestUnstableVocabularyMatchesSchema(t *testing.T) {
	checkVocabulary(t, loadSchema(t, unstableSchemaFile), unstableUpdates(), stableCases())
}

// shapeCase is an outbound value and the definition it must match.
type shapeCase struct {
	def    string // the schema definition
	disc   string // the discriminator member, if the value is a union variant
	sample any
}

// checkVocabulary checks each case's shape against defs, then that every
// session/update variant of defs is covered by a case, by elsewhere (the
// cases checked against the other schema) or by notYetSent.
func checkVocabulary(t *testing.T, defs map[string]schemaDef, tests, elsewhere []shapeCase) {
	t.Helper()
	covered := map[string]bool{}
	for _, tt := range elsewhere {
		data, err := json.Marshal(wireOf(t, tt.sample))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if kind, _ := m["sessionUpdate"].(string); tt.disc == "sessionUpdate" {
			covered[kind] = true
		}
	}
	for _, tt := range tests {
		w := wireOf(t, tt.sample)
		typ := reflect.TypeOf(w)
		t.Run(tt.def+"/"+reflect.TypeOf(tt.sample).Name(), func(t *testing.T) {
			def := mergedDef(t, defs, tt.def)
			if tt.disc != "" {
				data, err := json.Marshal(w)
				if err != nil {
					t.Fatal(err)
				}
				var m map[string]any
				if err := json.Unmarshal(data, &m); err != nil {
					t.Fatal(err)
				}
				value, _ := m[tt.disc].(string)
				if tt.disc == "sessionUpdate" {
					covered[value] = true
				}
				if !discriminatorKnown(defs, tt.disc, value) {
					t.Errorf("%s %q is no variant of the schema", tt.disc, value)
				}
			}
			checkShape(t, defs, typ, def, tt.disc)
		})
	}
	for _, v := range defs["SessionUpdate"].OneOf {
		kind, _ := v.Properties["sessionUpdate"].Const.(string)
		if !covered[kind] && !slices.Contains(notYetSent, kind) {
			t.Errorf("the schema's session/update variant %q has no type", kind)
		}
	}
}

// mergedDef returns a definition, or the union of several joined by "+"
// (a union's common members and one variant's).
func mergedDef(t *testing.T, defs map[string]schemaDef, names string) schemaDef {
	t.Helper()
	out := schemaDef{Properties: map[string]schemaDef{}}
	for name := range strings.SplitSeq(names, "+") {
		d, ok := defs[name]
		if !ok {
			t.Fatalf("no definition %s in the schema", name)
		}
		for k, v := range d.Properties {
			out.Properties[k] = v
		}
		out.Required = append(out.Required, d.Required...)
	}
	return out
}

// discriminatorKnown reports whether value is the const of disc in some
// union variant of the schema.
func discriminatorKnown(defs map[string]schemaDef, disc, value string) bool {
	for _, d := range defs {
		for _, v := range d.OneOf {
			if c, _ := v.Properties[disc].Const.(string); c == value && value != "" {
				return true
			}
		}
	}
	return false
}

// checkShape compares a wire struct's members with a definition's.
func checkShape(t *testing.T, defs map[string]schemaDef, typ reflect.Type, def schemaDef, disc string) {
	t.Helper()
	if typ.Kind() != reflect.Struct {
		t.Fatalf("%s is not a struct", typ)
	}
	seen := map[string]bool{}
	for f := range typ.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			t.Errorf("%s.%s has no json name", typ, f.Name)
			continue
		}
		seen[name] = true
		omits := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		if name == disc {
			if omits || f.Type.Kind() != reflect.String {
				t.Errorf("%s.%s: the discriminator must be a string always written", typ, f.Name)
			}
			continue
		}
		prop, ok := def.Properties[name]
		if !ok {
			t.Errorf("%s.%s: %q is not a member in the schema", typ, f.Name, name)
			continue
		}
		required := slices.Contains(def.Required, name)
		switch {
		case required && omits:
			t.Errorf("%s.%s: %q is required but omitted when empty", typ, f.Name, name)
		case !required && !omits && !(nullable(defs, prop) && f.Type.Kind() == reflect.Pointer):
			t.Errorf("%s.%s: %q is optional but always written", typ, f.Name, name)
		}
		if want, got := jsonKinds(defs, prop), goKind(f.Type); want != nil && got != "any" && !slices.Contains(want, got) {
			t.Errorf("%s.%s: %q is %v in the schema, %s in Go", typ, f.Name, name, want, f.Type)
		}
	}
	for name := range def.Properties {
		if !seen[name] {
			t.Errorf("%s has no member %q of the schema", typ, name)
		}
	}
}

// goKind is the JSON kind a Go type encodes as.
func goKind(t reflect.Type) string {
	if t == reflect.TypeFor[json.RawMessage]() {
		return "any"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return "any" // an interface: a union, checked by its own variants
}

// jsonKinds lists the JSON kinds a schema member may take (null aside),
// or nil when the schema does not say.
func jsonKinds(defs map[string]schemaDef, d schemaDef) []string {
	var out []string
	add := func(kinds ...string) {
		for _, k := range kinds {
			if k != "null" && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	switch ty := d.Type.(type) {
	case string:
		add(ty)
	case []any:
		for _, k := range ty {
			add(k.(string))
		}
	}
	if _, ok := d.Const.(string); ok {
		add("string")
	}
	if d.Ref != "" {
		add(jsonKinds(defs, defs[strings.TrimPrefix(d.Ref, "#/$defs/")])...)
	}
	for _, group := range [][]schemaDef{d.AllOf, d.AnyOf, d.OneOf} {
		for _, s := range group {
			kinds := jsonKinds(defs, s)
			if kinds == nil {
				return nil
			}
			add(kinds...)
		}
	}
	if slices.Contains(out, "number") {
		add("integer")
	}
	if slices.Contains(out, "object") {
		add("any") // a union of objects is an interface in Go
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// nullable reports whether a member may be null.
func nullable(defs map[string]schemaDef, d schemaDef) bool {
	if ty, ok := d.Type.([]any); ok && slices.Contains(ty, any("null")) {
		return true
	}
	for _, s := range d.AnyOf {
		if s.Type == "null" {
			return true
		}
	}
	return false
}
