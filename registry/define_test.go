package registry_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

type emptyArgs struct{}

type pathArgs struct {
	Path string `json:"path" jsonschema:"file to read"`
}

type server struct {
	Host string `json:"host"`
	Port int    `json:"port,omitempty"`
}

type nestedArgs struct {
	Config  server   `json:"config"`
	Tags    []string `json:"tags,omitempty"`
	Servers []server `json:"servers,omitempty"`
}

type optionalNested struct {
	Opt *struct {
		A string `json:"a,omitempty"`
		B int    `json:"b,omitempty"`
	} `json:"opt,omitempty"`
}

type choiceArgs struct {
	Color string `json:"color"`
	N     int    `json:"n,omitempty"`
	Any   []any  `json:"any,omitempty"`
}

func paramsOf[A any](t *testing.T, refine func(*jsonschema.Schema)) string {
	t.Helper()
	tool, err := registry.Define(registry.Spec[A, string]{
		Name:         "t",
		Handler:      func(context.Context, *registry.Call, A) (string, error) { return "", nil },
		RefineSchema: refine,
	})
	if err != nil {
		t.Fatalf("Define: %v", err)
	}
	return tool.Parameters()
}

func TestInferredParameters(t *testing.T) {
	tests := []struct {
		name string
		got  func(t *testing.T) string
		want string
	}{
		{
			name: "C86 required array, C97 unset keys omitted",
			got:  func(t *testing.T) string { return paramsOf[pathArgs](t, nil) },
			want: `{"type":"object","properties":{"path":{"type":"string","description":"file to read"}},"required":["path"]}`,
		},
		{
			name: "C87 empty struct",
			got:  func(t *testing.T) string { return paramsOf[emptyArgs](t, nil) },
			want: `{"type":"object","properties":{}}`,
		},
		{
			name: "C88 C95 C102 nested objects: additionalProperties first, nested required; arrays of objects",
			got:  func(t *testing.T) string { return paramsOf[nestedArgs](t, nil) },
			want: `{"type":"object","properties":{` +
				`"config":{"type":"object","additionalProperties":false,"properties":{"host":{"type":"string"},"port":{"type":"integer"}},"required":["host"]},` +
				`"tags":{"type":"array","items":{"type":"string"}},` +
				`"servers":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"host":{"type":"string"},"port":{"type":"integer"}},"required":["host"]}}},` +
				`"required":["config"]}`,
		},
		{
			name: "C99 nested object with only optional properties has no required",
			got:  func(t *testing.T) string { return paramsOf[optionalNested](t, nil) },
			want: `{"type":"object","properties":{"opt":{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"},"b":{"type":"integer"}}}}}`,
		},
		{
			name: "C93 C94 C96 enum and default through RefineSchema; C98 array of any",
			got: func(t *testing.T) string {
				return paramsOf[choiceArgs](t, func(s *jsonschema.Schema) {
					s.Properties["color"].Enum = []any{"red", "green"}
					s.Properties["color"].Default = []byte(`"red"`)
				})
			},
			want: `{"type":"object","properties":{"color":{"type":"string","default":"red","enum":["red","green"]},"n":{"type":"integer"},"any":{"type":"array","items":{}}},"required":["color"]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.got(t); got != tt.want {
				t.Errorf("parameters =\n %s\nwant\n %s", got, tt.want)
			}
		})
	}
}

func TestDefineRejectsSchemasOutsideTheSubset(t *testing.T) {
	// C114, C115, C136: an invalid refinement fails at definition time.
	tests := []struct {
		name   string
		refine func(*jsonschema.Schema)
		want   string
	}{
		{"enum of the wrong type", func(s *jsonschema.Schema) { s.Properties["n"].Enum = []any{"a"} }, "enum must be a non-empty array of integer values"},
		{"keyword outside the subset", func(s *jsonschema.Schema) { s.Properties["color"].Pattern = "^r" }, "outside the supported subset"},
		{"type and oneOf", func(s *jsonschema.Schema) {
			s.Properties["color"].OneOf = []*jsonschema.Schema{{Type: "string"}, {Type: "null"}}
		}, "cannot declare both type and oneOf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := registry.Define(registry.Spec[choiceArgs, string]{
				Name:         "t",
				Handler:      func(context.Context, *registry.Call, choiceArgs) (string, error) { return "", nil },
				RefineSchema: tt.refine,
			})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestTypedArgumentValidation(t *testing.T) {
	// C108–C118: violations name each property and rule, in walk order.
	reg := registry.New()
	ran := false
	tool, err := registry.Define(registry.Spec[nestedArgs, string]{
		Name: "nested",
		Handler: func(context.Context, *registry.Call, nestedArgs) (string, error) {
			ran = true
			return "ok", nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	mustRegister(t, reg, nil, tool)
	choice, err := registry.Define(registry.Spec[choiceArgs, string]{
		Name:    "choice",
		Handler: func(context.Context, *registry.Call, choiceArgs) (string, error) { return "ok", nil },
		RefineSchema: func(s *jsonschema.Schema) {
			s.Properties["color"].Enum = []any{"red", "green"}
			s.Properties["n"].Enum = []any{1, 2}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		tool *registry.Tool
		args string
		want []string
	}{
		{"C108 valid", tool, `{"config":{"host":"h"}}`, nil},
		{"C108 null", tool, `null`, []string{`"arguments" must be an object`}},
		{"C108 string", tool, `"nope"`, []string{`"arguments" must be an object`}},
		{"C108 array", tool, `[]`, []string{`"arguments" must be an object`}},
		{"C109 missing", tool, `{}`, []string{`missing required property "config"`}},
		{"C110 extra keys allowed at the root", tool, `{"config":{"host":"h"},"extra":1}`, nil},
		{"C113 enum", choice, `{"color":"blue"}`, []string{`"color" must be one of ["red","green"]`}},
		{"C114 numeric enum", choice, `{"color":"red","n":3}`, []string{`"n" must be one of [1,2]`}},
		{"C116 nested missing", tool, `{"config":{}}`, []string{`missing required property "config.host"`}},
		{"C116 not an object", tool, `{"config":[]}`, []string{`"config" must be an object`}},
		{"C117 array item", tool, `{"config":{"host":"h"},"tags":["a",1]}`, []string{`"tags[1]" must be a string`}},
		{"C117 not an array", tool, `{"config":{"host":"h"},"tags":"a"}`, []string{`"tags" must be an array`}},
		{"C118 nested in array", tool, `{"config":{"host":"h"},"servers":[{"host":"a"},{}]}`, []string{`missing required property "servers[1].host"`}},
		{"several in walk order", tool, `{"config":{"host":1,"zzz":1},"tags":[true]}`, []string{
			`"config.host" must be a string`, `"config.zzz" is not a declared property (additionalProperties: false)`, `"tags[0]" must be a string`,
		}},
		{"integer rule", tool, `{"config":{"host":"h","port":1.5}}`, []string{`"config.port" must be an integer`}},
		{"integer too large for Go int", tool, `{"config":{"host":"h","port":1e30}}`, []string{`"config.port" cannot hold number 1e+30`}},
		{"invalid JSON", tool, `{"config":`, []string{`arguments are not valid JSON`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran = false
			call := registry.NewCall(registry.CallSpec{ID: "c", Name: tt.tool.Name(), Arguments: mustArgs(t, tt.args)})
			_, err := run(tt.tool, call)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				return
			}
			var e *registry.Error
			if !errors.As(err, &e) || e.Code != registry.CodeInvalidArgs {
				t.Fatalf("error = %#v, want INVALID_ARGS", err)
			}
			if ran {
				t.Errorf("handler ran with invalid arguments")
			}
			if len(e.Violations) != len(tt.want) {
				t.Fatalf("violations = %q, want %q", e.Violations, tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(e.Violations[i], w) {
					t.Errorf("violation %d = %q, want prefix %q", i, e.Violations[i], w)
				}
			}
			// C121: the message joins the violations.
			if want := "invalid arguments: " + strings.Join(e.Violations, "; "); e.Error() != want {
				t.Errorf("message = %q, want %q", e.Error(), want)
			}
		})
	}
}

func TestRawToolsAreNotValidated(t *testing.T) {
	// C92, C125, C176: a raw tool's body and classifier see the arguments as
	// they came.
	var seen string
	tool, err := registry.DefineRaw(registry.RawSpec{
		Name:       "mcp_tool",
		Parameters: `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"anyOf":[{}]}`,
		Output:     registry.RawOutput{Render: renderValue},
		Execute: func(_ context.Context, call *registry.Call, args registry.Arguments) (any, error) {
			seen = args.JSON()
			return "ok", nil
		},
		ConcurrencySafe: func(args registry.Arguments) bool { return args.Value().Kind() == jsonvalue.KindString },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run(tool, registry.NewCall(registry.CallSpec{Name: "mcp_tool", Arguments: mustArgs(t, `{}`)})); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if seen != `{}` {
		t.Errorf("body saw %s", seen)
	}
	if !bind(tool, mustArgs(t, `not json`)).ConcurrencySafe() {
		t.Errorf("raw classifier did not receive the raw string")
	}
}

func TestPresentersAndClassifierAreSoft(t *testing.T) {
	// C131, C132, C133, C173, C174.
	tool, err := registry.Define(registry.Spec[pathArgs, string]{
		Name:    "read",
		Handler: func(context.Context, *registry.Call, pathArgs) (string, error) { return "", nil },
		PresentCall: func(a pathArgs) presentation.CallView {
			return presentation.GenericCallView{Title: "Read " + a.Path, Kind: presentation.KindRead}
		},
		PresentResult: func(a pathArgs, r presentation.ToolResult) presentation.ResultView {
			if a.Path == "panic" {
				panic("presenter exploded")
			}
			return presentation.GenericResultView{Title: a.Path}
		},
		ConcurrencySafe: func(a pathArgs) bool {
			if a.Path == "panic" {
				panic("classifier exploded")
			}
			return true
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	good, bad, boom := bind(tool, mustArgs(t, `{"path":"a.go"}`)), bind(tool, mustArgs(t, `{"path":7}`)), bind(tool, mustArgs(t, `{"path":"panic"}`))
	if v, ok := good.PresentCall().(presentation.GenericCallView); !ok || v.Title != "Read a.go" {
		t.Errorf("PresentCall(good) = %#v", good.PresentCall())
	}
	if bad.PresentCall() != nil || bad.PresentResult(presentation.ToolResult{}) != nil {
		t.Errorf("presenters answered for invalid arguments")
	}
	if boom.PresentResult(presentation.ToolResult{}) != nil {
		t.Errorf("a panicking presenter produced a view")
	}
	if !good.ConcurrencySafe() || bad.ConcurrencySafe() || boom.ConcurrencySafe() {
		t.Errorf("classifier: good=%v bad=%v boom=%v", good.ConcurrencySafe(), bad.ConcurrencySafe(), boom.ConcurrencySafe())
	}
	plain := bind(echo(t, "plain"), mustArgs(t, `{"path":"a.go"}`))
	if plain.PresentCall() != nil || plain.PresentResult(presentation.ToolResult{}) != nil || plain.ConcurrencySafe() {
		t.Errorf("a tool without presenters or classifier answered")
	}
	var zero registry.Bound
	if zero.PresentCall() != nil || zero.PresentResult(presentation.ToolResult{}) != nil || zero.ConcurrencySafe() {
		t.Errorf("the zero Bound answered")
	}
}

// TestPresentApproval: the approval card is computed with the approval's
// context and the bound arguments; without one, or when the tool's gives
// none or panics, the pending card stands in.
func TestPresentApproval(t *testing.T) {
	type ctxKey struct{}
	tool, err := registry.Define(registry.Spec[pathArgs, string]{
		Name:    "edit",
		Handler: func(context.Context, *registry.Call, pathArgs) (string, error) { return "", nil },
		PresentCall: func(a pathArgs) presentation.CallView {
			return presentation.GenericCallView{Title: "pending " + a.Path}
		},
		PresentApproval: func(ctx context.Context, a pathArgs) presentation.CallView {
			switch a.Path {
			case "panic":
				panic("approval card exploded")
			case "none":
				return nil
			}
			return presentation.GenericCallView{Title: "approve " + a.Path + " " + ctx.Value(ctxKey{}).(string)}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.WithValue(context.Background(), ctxKey{}, "now")
	title := func(b registry.Bound) string {
		v, ok := b.PresentApproval(ctx).(presentation.GenericCallView)
		if !ok {
			return fmt.Sprintf("%#v", b.PresentApproval(ctx))
		}
		return v.Title
	}
	for _, tc := range []struct{ args, want string }{
		{`{"path":"a.go"}`, "approve a.go now"},
		{`{"path":"none"}`, "pending none"},
		{`{"path":"panic"}`, "pending panic"},
	} {
		if got := title(bind(tool, mustArgs(t, tc.args))); got != tc.want {
			t.Errorf("%s: approval card %q, want %q", tc.args, got, tc.want)
		}
	}
	if v := bind(tool, mustArgs(t, `{"path":7}`)).PresentApproval(ctx); v != nil {
		t.Errorf("invalid arguments gave the approval card %#v", v)
	}
	if got := title(bind(echo(t, "plain"), mustArgs(t, `{}`))); got != "<nil>" {
		t.Errorf("a tool without cards: %s", got)
	}
	var zero registry.Bound
	if zero.PresentApproval(ctx) != nil {
		t.Errorf("the zero Bound answered")
	}
}

func TestEffectAndPaths(t *testing.T) {
	tool, err := registry.Define(registry.Spec[pathArgs, string]{
		Name:    "touch",
		Effect:  registry.EffectWrite,
		Handler: func(context.Context, *registry.Call, pathArgs) (string, error) { return "", nil },
		Paths: func(a pathArgs) []string {
			if a.Path == "panic" {
				panic("paths exploded")
			}
			return []string{a.Path}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if tool.Effect() != registry.EffectWrite || tool.Effect().String() != "write" {
		t.Errorf("effect = %v", tool.Effect())
	}
	tests := []struct {
		args   string
		want   []string
		wantOK bool
	}{
		{`{"path":"a.txt"}`, []string{"a.txt"}, true},
		{`{"path":3}`, nil, false},
		{`{"path":"panic"}`, nil, false},
	}
	for _, tt := range tests {
		got, ok := bind(tool, mustArgs(t, tt.args)).Paths()
		if ok != tt.wantOK || strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("Paths(%s) = %v, %v; want %v, %v", tt.args, got, ok, tt.want, tt.wantOK)
		}
	}
	if paths, ok := echo(t, "e").Paths(mustArgs(t, `{"text":"x"}`)); !ok || paths != nil {
		t.Errorf("a tool without Paths: %v, %v", paths, ok)
	}
}
