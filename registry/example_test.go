package registry_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
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

// Reach for Restrict when an agent must see fewer tools than it inherits:
// a reviewer subagent that may read but not change anything. The
// restriction narrows what the scope inherits (and what every scope below
// it inherits); the tools registered in the scope itself stay visible.
func ExampleRegistry_Restrict() {
	reg := registry.New()
	tool := func(name string) *registry.Tool { // a tool that answers its own name
		t, _ := registry.Define(registry.Spec[struct{}, string]{
			Name:    name,
			Handler: func(context.Context, *registry.Call, struct{}) (string, error) { return name, nil },
		})
		return t
	}
	names := func(scope *registry.Scope) (out []string) { // the tools scope sees
		for _, t := range reg.Tools(scope) {
			out = append(out, t.Name())
		}
		return out
	}
	for _, name := range []string{"read", "write", "bash"} {
		reg.Register(nil, tool(name))
	}
	session := reg.NewScope("session", nil)
	reviewer := reg.NewScope("reviewer", session)
	lift, err := reg.Restrict(reviewer, registry.Restriction{Allow: []string{"read"}})
	if err != nil {
		panic(err)
	}
	reg.Register(reviewer, tool("report"))
	fmt.Println("reviewer:", names(reviewer))
	fmt.Println("session: ", names(session))

	// A name the scope does not inherit is refused, not ignored.
	_, err = reg.Restrict(reviewer, registry.Restriction{Deny: []string{"rm"}})
	fmt.Println(err)

	lift()
	fmt.Println("reviewer, lifted:", names(reviewer))
	// Output:
	// reviewer: [read report]
	// session:  [read write bash]
	// Restrict names tool "rm", which scope "reviewer" does not inherit; it inherits: bash, read, write
	// reviewer, lifted: [read write bash report]
}

// Reach for a scope per agent: the tools an agent registers through its
// scope (an editor's MCP tools for one session, a subagent's own tools)
// are visible to that scope and the scopes nested below it, never to its
// siblings, and shadow an inherited tool of the same name. Closing the
// scope undoes everything registered through it.
func ExampleRegistry_NewScope() {
	reg := registry.New()
	tool := func(name string) *registry.Tool { // a tool that answers its own name
		t, _ := registry.Define(registry.Spec[struct{}, string]{
			Name:    name,
			Handler: func(context.Context, *registry.Call, struct{}) (string, error) { return name, nil },
		})
		return t
	}
	names := func(scope *registry.Scope) (out []string) { // the tools scope sees
		for _, t := range reg.Tools(scope) {
			out = append(out, t.Name())
		}
		return out
	}
	reg.Register(nil, tool("read"))
	reg.Register(nil, tool("bash"))

	session := reg.NewScope("session-1", nil)
	reg.Register(session, tool("mcp_lookup")) // the editor's MCP tool for this session only
	subagent := reg.NewScope("explorer", session)
	reg.Register(subagent, tool("bash")) // shadows the global bash for this subagent
	other := reg.NewScope("session-2", nil)

	fmt.Println("session-1:", names(session))
	fmt.Println("explorer: ", names(subagent), "parent", subagent.Parent().Name())
	fmt.Println("session-2:", names(other))
	fmt.Println("explorer's bash is its own:", reg.Get("bash", subagent) != reg.Get("bash", session))

	subagent.Close() // the subagent is done
	session.Close()  // the session ends: its MCP tool goes with it
	fmt.Println("after close:", names(session), reg.Get("mcp_lookup", session) == nil)
	// Output:
	// session-1: [read bash mcp_lookup]
	// explorer:  [read bash mcp_lookup] parent session-1
	// session-2: [read bash]
	// explorer's bash is its own: true
	// after close: [read bash] true
}

// Reach for a guard for a veto that no approval can lift: the pipeline
// consults guards after the pre-execute chain has allowed a call (even
// when the user approved it), and the first reason given denies it. Here
// no tool may touch a .env file, whatever the session's permission mode.
func ExampleRegistry_Guard() {
	type readArgs struct {
		Path string `json:"path"`
	}
	read, _ := registry.Define(registry.Spec[readArgs, string]{
		Name:  "read",
		Paths: func(a readArgs) []string { return []string{a.Path} },
		Handler: func(_ context.Context, _ *registry.Call, a readArgs) (string, error) {
			return "contents of " + a.Path, nil
		},
	})
	reg := registry.New()
	reg.Register(nil, read)
	reg.Guard(nil, func(call *registry.Call) string {
		paths, _ := call.Bound().Paths()
		if slices.ContainsFunc(paths, func(p string) bool { return filepath.Base(p) == ".env" }) {
			return "secrets files are off limits"
		}
		return "" // abstain: a guard can deny, never allow
	})

	// The policy asks about every call, and the user approves every ask.
	approveAll := pipeline.ApproverFunc(func(context.Context, pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
		return pipeline.ApprovalAllowedOnce, nil
	})
	p := pipeline.New(reg, pipeline.Options{Approver: approveAll})
	agent := reg.NewScope("agent", nil)
	p.UsePreExecute(nil, func(context.Context, *registry.Call, pipeline.PreNext) (pipeline.Decision, error) {
		return pipeline.Ask(""), nil
	})
	ctx := context.Background()
	for i, path := range []string{"main.go", "deploy/.env"} {
		r := p.Execute(ctx, pipeline.Input{CallID: fmt.Sprint("call_", i), Name: "read", Arguments: fmt.Sprintf(`{"path":%q}`, path), Scope: agent})
		fmt.Println(presentation.JoinText(r.Content))
	}
	// Output:
	// contents of main.go
	// Error: secrets files are off limits
}

// Reach for OnChange to keep something in step with the tools a scope
// sees: the tool list offered to the model, or the commands shown to the
// user, when an editor connects an MCP server mid-session. A listener that
// fails refuses the change: the registration is rolled back and its error
// returned.
func ExampleRegistry_OnChange() {
	reg := registry.New()
	tool := func(name string) *registry.Tool { // a tool that answers its own name
		t, _ := registry.Define(registry.Spec[struct{}, string]{
			Name:    name,
			Handler: func(context.Context, *registry.Call, struct{}) (string, error) { return name, nil },
		})
		return t
	}
	names := func(scope *registry.Scope) (out []string) { // the tools scope sees
		for _, t := range reg.Tools(scope) {
			out = append(out, t.Name())
		}
		return out
	}
	session := reg.NewScope("session", nil)
	stop := reg.OnChange(func(ev registry.ChangeEvent) error {
		if ev.Kind == registry.ChangeRegistered && ev.Name == "rm" {
			return errors.New("rm may not be offered to the model")
		}
		fmt.Printf("%s %s: the session now sees %v\n", ev.Name, ev.Kind, names(session))
		return nil
	})
	defer stop()

	unregister, _ := reg.Register(session, tool("mcp_lookup"))
	_, err := reg.Register(session, tool("rm"))
	fmt.Println(err)
	unregister()
	// Output:
	// mcp_lookup registered: the session now sees [mcp_lookup]
	// rm may not be offered to the model
	// mcp_lookup unregistered: the session now sees []
}
