package registry_test

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/registry"
)

func ExampleDefine() {
	type greetArgs struct {
		Name string `json:"name" jsonschema:"who to greet"`
	}
	greet, err := registry.Define(registry.Spec[greetArgs, string]{
		Name:        "greet",
		Description: "Greet someone by name.",
		Handler: func(_ context.Context, _ *registry.Call, args greetArgs) (string, error) {
			return "hello, " + args.Name, nil
		},
	})
	if err != nil {
		panic(err)
	}
	reg := registry.New()
	dispose, err := reg.Register(nil, greet)
	if err != nil {
		panic(err)
	}
	defer dispose()

	for _, s := range reg.Schemas(nil) {
		fmt.Printf("%s: %s\n", s.Name, s.Parameters)
	}

	// The model forgot the name: the handler does not run.
	// Binding validates and decodes the arguments once per call.
	args, _ := registry.MaterializeArguments(`{}`)
	_, err = greet.Bind(args)
	fmt.Println(err)
	// Output:
	// greet: {"type":"object","properties":{"name":{"type":"string","description":"who to greet"}},"required":["name"]}
	// invalid arguments: missing required property "name"
}

func ExampleRegistry_Restrict() {
	reg := registry.New()
	for _, name := range []string{"read", "write", "bash"} {
		tool, _ := registry.Define(registry.Spec[struct{}, string]{
			Name:    name,
			Handler: func(context.Context, *registry.Call, struct{}) (string, error) { return "", nil },
		})
		reg.Register(nil, tool)
	}
	reviewer := reg.NewScope("reviewer", nil)
	if _, err := reg.Restrict(reviewer, registry.Restriction{Allow: []string{"read"}}); err != nil {
		panic(err)
	}
	for _, t := range reg.Tools(reviewer) {
		fmt.Println(t.Name())
	}
	// Output:
	// read
}
