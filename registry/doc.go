// Package registry holds tool definitions and decides which tools each
// agent scope sees.
//
// A tool author writes an argument struct, a result type and a handler;
// Define infers the JSON Schema the model is shown from the struct and
// validates every call's arguments against it before the handler runs:
//
//	type echoArgs struct {
//		Text string `json:"text" jsonschema:"what to say back"`
//	}
//
//	echo, err := registry.Define(registry.Spec[echoArgs, string]{
//		Name:        "echo",
//		Description: "Say the text back.",
//		Handler: func(ctx context.Context, call *registry.Call, args echoArgs) (string, error) {
//			return args.Text, nil
//		},
//	})
//	if err != nil { … }
//	reg := registry.New()
//	dispose, err := reg.Register(nil, echo) // nil: the global layer
//	defer dispose()
//	schemas := reg.Schemas(nil) // [{echo, "Say the text back.", {"type":"object",…}}]
//
// Each call's arguments are bound to the tool once (Tool.Bind): validated
// and decoded a single time into a Bound that answers every question about
// the call — may it run in parallel, which paths it touches, its cards —
// and runs it:
//
//	bound, err := echo.Bind(args) // err: INVALID_ARGS, and bound still stands for the call
//	out, err := bound.Run(ctx, registry.NewCall(registry.CallSpec{ID: "call_1", Name: "echo", Bound: bound}))
//
// Tools registered through a Scope (an agent) are visible only to that
// scope and shadow inherited ones; Restrict narrows what a scope inherits;
// Guard adds vetoes the pipeline consults. Every registration returns the
// disposer that undoes exactly it. Raw definitions (DefineRaw) carry raw
// JSON Schema and get no argument validation, for tools that come from
// elsewhere.
//
// The pipeline package executes calls against a Registry.
package registry
