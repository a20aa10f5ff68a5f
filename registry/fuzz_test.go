package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/registry"
)

type fuzzArgs struct {
	Path    string   `json:"path"`
	Offset  *int     `json:"offset,omitempty"`
	Limit   int      `json:"limit,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Servers []server `json:"servers,omitempty"`
	Flag    bool     `json:"flag,omitempty"`
	Ratio   float64  `json:"ratio,omitempty"`
}

// FuzzMaterializeValidate feeds arbitrary model argument text through
// materialization and typed validation: nothing panics, materialized
// arguments are canonical and stable, and the handler runs only with
// arguments that decode.
func FuzzMaterializeValidate(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, ` { "path" : "a" } `, `{"path":"a","offset":3,"limit":10}`, `{"path":1}`,
		`{"path":"a","tags":["x",2]}`, `{"path":"a","servers":[{"host":"h"},{}]}`, `{"path":"a","ratio":-0}`,
		`{"path":"a","limit":1e400}`, `{"path":"a","limit":1.5}`, `{"path":"\u00e9\ud800"}`, `not json`, `[1,2`,
		`{"path":"a","path":"b"}`, `null`, `"str"`, `{"path":"a","offset":99999999999999999999}`,
	} {
		f.Add(seed)
	}
	tool, err := registry.Define(registry.Spec[fuzzArgs, string]{
		Name: "fuzz",
		Handler: func(_ context.Context, _ *registry.Call, a fuzzArgs) (string, error) {
			return a.Path, nil
		},
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		args, err := registry.MaterializeArguments(raw)
		if err != nil {
			if !errors.Is(err, registry.ErrLossyArguments) {
				t.Fatalf("materialize error does not wrap ErrLossyArguments: %v", err)
			}
			return
		}
		text := args.JSON()
		if !json.Valid([]byte(text)) {
			t.Fatalf("materialized text is not JSON: %q", text)
		}
		again, err := jsonvalue.Canonicalize(text)
		if err != nil || again != text {
			t.Fatalf("materialized text is not canonical: %q → %q, %v", text, again, err)
		}
		if args.InvalidJSON() != nil && args.Value().Kind() != jsonvalue.KindString {
			t.Fatalf("invalid JSON was not kept as a string")
		}
		call := registry.NewCall(registry.CallSpec{ID: "c", Name: "fuzz", Arguments: args})
		bound, bindErr := tool.Bind(args)
		_, err = bound.Run(context.Background(), call)
		if (bindErr == nil) != (err == nil) {
			t.Fatalf("Bind said %v, Run said %v", bindErr, err)
		}
		if err != nil {
			var e *registry.Error
			if !errors.As(err, &e) || e.Code != registry.CodeInvalidArgs || len(e.Violations) == 0 {
				t.Fatalf("Run failed without INVALID_ARGS violations: %v", err)
			}
			if !strings.HasPrefix(e.Error(), "invalid arguments: ") {
				t.Fatalf("message = %q", e.Error())
			}
			return
		}
	})
}
