package acptest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaPath is where the ACP v1 JSON Schema lives, relative to the module
// root: shipped by the npm package @agentclientprotocol/sdk that
// e2e/package-lock.json pins, installed by `make deps` (`npm ci --prefix e2e`).
const SchemaPath = "e2e/node_modules/@agentclientprotocol/sdk/schema/v1/schema.json"

// schemaURL names the schema document inside the compiler.
const schemaURL = "acp://schema/v1/schema.json"

// extraSchema holds the messages beyond the pinned schema that clients
// and we still use: the unstable model choice of
// @agentclientprotocol/sdk 0.14 (the "models" member of a session setup,
// session/set_model), which agent-shell and the AI SDK provider read, and
// the _session/steering extension (claude-agent-acp's and codex-acp's).
// Its definitions refer to the pinned schema's.
//
//go:embed extra.schema.json
var extraSchema []byte

// extraURL names extraSchema inside the compiler; extraPrefix marks
// the definition names that are its own.
const (
	extraURL    = "acp://acptest/extra.schema.json"
	extraPrefix = "extra:"
)

// extraMessages are the messages validated against extraSchema's
// definitions, which the pinned schema lacks (session/set_model) or
// extends (a session setup's models member).
func extraMessages() map[msgKey]string {
	return map[msgKey]string{
		{FromClient, Request, "session/set_model"}: "SetSessionModelRequest",
		{FromAgent, Response, "session/set_model"}: "SetSessionModelResponse",
		{FromAgent, Response, "session/new"}:       "NewSessionResponse",
		{FromAgent, Response, "session/load"}:      "LoadSessionResponse",
		{FromAgent, Response, "session/resume"}:    "ResumeSessionResponse",
		{FromClient, Request, "_session/steering"}: "SteeringRequest",
		{FromAgent, Response, "_session/steering"}: "SteeringResponse",
	}
}

// Side is the peer that sends a message.
type Side int

const (
	// FromAgent marks messages the agent sends (our server's frames).
	FromAgent Side = iota
	// FromClient marks messages the client sends.
	FromClient
)

// String returns "agent" or "client".
func (s Side) String() string {
	if s == FromAgent {
		return "agent"
	}
	return "client"
}

// Kind is the JSON-RPC role of a message.
type Kind int

const (
	// Request is a call that expects a response; its params are validated.
	Request Kind = iota
	// Response is a successful answer; its result is validated by the
	// method of the request it answers.
	Response
	// Notification is a call without an id; its params are validated.
	Notification
)

// String returns "request", "response" or "notification".
func (k Kind) String() string {
	switch k {
	case Request:
		return "request"
	case Response:
		return "response"
	}
	return "notification"
}

// Schema validates ACP messages against their specific definitions in the
// ACP v1 JSON Schema — never against the root, whose extension fallbacks
// accept nearly anything (a tool_call without title, stopReason "done").
// The method → definition map is built from the schema's own unions
// (AgentRequest, ClientResponse, …) and their x-method annotations, not by
// hand, plus the few messages of extra.schema.json (extraMessages). A Schema is immutable and safe for concurrent use; load it once
// per test binary and share it.
type Schema struct {
	path  string
	defs  map[msgKey]string             // message → definition name
	comp  map[string]*jsonschema.Schema // definition name → compiled
	error *jsonschema.Schema            // the JSON-RPC error object
	// unstable is schema.unstable.json's SessionNotification, which
	// validates the session updates only it defines (unstableUpdates).
	unstable *jsonschema.Schema
}

// unstableSchemaFile is the unstable schema beside the pinned one, and
// unstableURL its name inside the compiler.
const (
	unstableSchemaFile = "schema.unstable.json"
	unstableURL        = "acp://schema/v1/schema.unstable.json"
)

// unstableUpdates are the session updates the pinned stable schema
// lacks and schema.unstable.json defines, which we send only to clients
// that advertise them: their session/update notifications are validated
// against the unstable schema's SessionNotification.
var unstableUpdates = map[string]bool{"subagent_update": true}

// msgKey identifies a message shape: who sends it, its role, its method.
type msgKey struct {
	from   Side
	kind   Kind
	method string
}

// messageUnion is one of the schema's message unions: the definition
// named holds every message of that sender and role.
type messageUnion struct {
	name string
	key  msgKey
}

// messageUnions lists the schema's message unions.
func messageUnions() []messageUnion {
	return []messageUnion{
		{"AgentRequest", msgKey{from: FromAgent, kind: Request}},
		{"AgentResponse", msgKey{from: FromAgent, kind: Response}},
		{"AgentNotification", msgKey{from: FromAgent, kind: Notification}},
		{"ClientRequest", msgKey{from: FromClient, kind: Request}},
		{"ClientResponse", msgKey{from: FromClient, kind: Response}},
		{"ClientNotification", msgKey{from: FromClient, kind: Notification}},
	}
}

// LoadSchema finds the schema from the test's working directory (walking
// up to the module root, the directory holding go.mod) and loads it. It
// fails the test when the schema is missing, saying how to install it; it
// never skips.
func LoadSchema(t testing.TB) *Schema {
	t.Helper()
	s, err := OpenSchema()
	if err != nil {
		t.Fatalf("acptest: %v", err)
	}
	return s
}

// OpenSchema is LoadSchema for callers without a testing.TB.
func OpenSchema() (*Schema, error) {
	path, err := schemaFile()
	if err != nil {
		return nil, err
	}
	return OpenSchemaFile(path)
}

// schemaFile locates the installed schema from the working directory; its
// error says how to install it.
func schemaFile() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("locating the ACP schema: %w", err)
	}
	root, err := moduleRoot(wd)
	if err != nil {
		return "", err
	}
	path := filepath.Join(root, filepath.FromSlash(SchemaPath))
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("the ACP JSON Schema that validates every message in these tests is missing (%w): "+
			"run `make deps` first (it runs `npm ci --prefix e2e` in %s, installing @agentclientprotocol/sdk from e2e/package-lock.json)", err, root)
	}
	return path, nil
}

// moduleRoot walks up from dir to the directory holding go.mod.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("locating the ACP schema: no go.mod above %s", dir)
		}
		d = parent
	}
}

// OpenSchemaFile loads and compiles the schema file at path.
func OpenSchemaFile(path string) (*Schema, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the ACP schema: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("parsing the ACP schema %s: %w", path, err)
	}
	var raw struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("parsing the ACP schema %s: %w", path, err)
	}
	extra, err := jsonschema.UnmarshalJSON(bytes.NewReader(extraSchema))
	if err != nil {
		return nil, fmt.Errorf("parsing extra.schema.json: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("loading the ACP schema: %w", err)
	}
	if err := c.AddResource(extraURL, extra); err != nil {
		return nil, fmt.Errorf("loading extra.schema.json: %w", err)
	}
	s := &Schema{path: path, defs: map[msgKey]string{}, comp: map[string]*jsonschema.Schema{}}
	for _, u := range messageUnions() {
		body, ok := raw.Defs[u.name]
		if !ok {
			return nil, fmt.Errorf("the ACP schema %s has no $defs/%s", path, u.name)
		}
		for _, name := range refsIn(body) {
			var ann struct {
				Method string `json:"x-method"`
			}
			if err := json.Unmarshal(raw.Defs[name], &ann); err != nil || ann.Method == "" {
				continue // extension fallbacks and shared shapes carry no x-method
			}
			key := u.key
			key.method = ann.Method
			s.defs[key] = name
		}
	}
	// $/cancel_request is protocol-level: either side may send it.
	for name, body := range raw.Defs {
		var ann struct {
			Method string `json:"x-method"`
			Side   string `json:"x-side"`
		}
		if json.Unmarshal(body, &ann) == nil && ann.Side == "protocol" && ann.Method != "" {
			s.defs[msgKey{FromAgent, Notification, ann.Method}] = name
			s.defs[msgKey{FromClient, Notification, ann.Method}] = name
		}
	}
	for key, name := range extraMessages() {
		s.defs[key] = extraPrefix + name
	}
	for _, name := range s.defs {
		if _, done := s.comp[name]; done {
			continue
		}
		url := schemaURL + "#/$defs/" + name
		if own, ok := strings.CutPrefix(name, extraPrefix); ok {
			url = extraURL + "#/$defs/" + own
		}
		sch, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("compiling $defs/%s: %w", name, err)
		}
		s.comp[name] = sch
	}
	if s.error, err = c.Compile(schemaURL + "#/$defs/Error"); err != nil {
		return nil, fmt.Errorf("compiling $defs/Error: %w", err)
	}
	if s.unstable, err = compileUnstable(filepath.Join(filepath.Dir(path), unstableSchemaFile)); err != nil {
		return nil, err
	}
	return s, nil
}

// compileUnstable compiles the SessionNotification of the unstable schema
// at path.
func compileUnstable(path string) (*jsonschema.Schema, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the unstable ACP schema: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("parsing the unstable ACP schema %s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(unstableURL, doc); err != nil {
		return nil, fmt.Errorf("loading the unstable ACP schema: %w", err)
	}
	sch, err := c.Compile(unstableURL + "#/$defs/SessionNotification")
	if err != nil {
		return nil, fmt.Errorf("compiling the unstable $defs/SessionNotification: %w", err)
	}
	return sch, nil
}

// refsIn lists the local definitions a schema fragment references.
func refsIn(body json.RawMessage) []string {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return nil
	}
	var names []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
					names = append(names, name)
				}
			}
			for _, child := range v {
				walk(child)
			}
		case []any:
			for _, child := range v {
				walk(child)
			}
		}
	}
	walk(v)
	return names
}

// Path is the schema file this Schema was loaded from.
func (s *Schema) Path() string { return s.path }

// Definition names the definition a message is validated against, e.g.
// Definition(FromAgent, Notification, "session/update") is
// "SessionNotification"; a name starting "extra:" is one of
// extra.schema.json (Definition(FromAgent, Response, "session/new") is
// "extra:NewSessionResponse": the pinned one and the models member). ok
// is false for a method neither defines for that sender and role.
func (s *Schema) Definition(from Side, kind Kind, method string) (name string, ok bool) {
	name, ok = s.defs[msgKey{from, kind, method}]
	return name, ok
}

// Methods lists, sorted, the methods the schema defines for a sender and
// role.
func (s *Schema) Methods(from Side, kind Kind) []string {
	var out []string
	for k := range s.defs {
		if k.from == from && k.kind == kind {
			out = append(out, k.method)
		}
	}
	sort.Strings(out)
	return out
}

// Validate checks a request's or notification's params, or a response's
// result, against the definition for its sender, role and method. A
// method the schema does not define for them is an error.
func (s *Schema) Validate(from Side, kind Kind, method string, payload json.RawMessage) error {
	if from == FromAgent && kind == Notification && method == "session/update" && unstableUpdates[updateKind(payload)] {
		if err := validateAgainst(s.unstable, payload); err != nil {
			return fmt.Errorf("agent notification %q (%s) does not match the unstable $defs/SessionNotification: %w", method, updateKind(payload), err)
		}
		return nil
	}
	name, ok := s.Definition(from, kind, method)
	if !ok {
		return fmt.Errorf("the ACP schema defines no %s %s %q", from, kind, method)
	}
	if err := validateAgainst(s.comp[name], payload); err != nil {
		return fmt.Errorf("%s %s %q does not match $defs/%s: %w", from, kind, method, name, err)
	}
	return nil
}

// updateKind is the sessionUpdate of a session/update's params, or "".
func updateKind(params json.RawMessage) string {
	var p struct {
		Update struct {
			SessionUpdate string `json:"sessionUpdate"`
		} `json:"update"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Update.SessionUpdate
}

// ValidateError checks a JSON-RPC error object against $defs/Error and
// that its code is not 0.
func (s *Schema) ValidateError(errObj json.RawMessage) error {
	if err := validateAgainst(s.error, errObj); err != nil {
		return fmt.Errorf("error object does not match $defs/Error: %w", err)
	}
	var e struct {
		Code int64 `json:"code"`
	}
	if err := json.Unmarshal(errObj, &e); err != nil || e.Code == 0 {
		return errors.New("error object has code 0")
	}
	return nil
}

// validateAgainst validates one JSON document. Absent params or result
// count as null.
func validateAgainst(sch *jsonschema.Schema, payload json.RawMessage) error {
	if len(bytes.TrimSpace(payload)) == 0 {
		payload = json.RawMessage("null")
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(payload))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return sch.Validate(v)
}
