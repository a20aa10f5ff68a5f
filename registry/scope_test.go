package registry_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/registry"
)

func TestScopedToolsAreVisibleOnlyInTheirScope(t *testing.T) {
	// C180, C181.
	reg := registry.New()
	agent := reg.NewScope("agent", nil)
	other := reg.NewScope("other", nil)
	mine := echo(t, "mine")
	mustRegister(t, reg, agent, mine)
	if reg.Get("mine", agent) != mine {
		t.Errorf("scope does not see its own tool")
	}
	if reg.Get("mine", other) != nil || reg.Get("mine", nil) != nil {
		t.Errorf("a scoped tool leaked out of its scope")
	}

	// A scoped tool shadows a global one whichever was registered first,
	// keeps the global's slot, and is listed once.
	local := echo(t, "shared")
	mustRegister(t, reg, agent, local)
	mustRegister(t, reg, nil, echo(t, "first"))
	global := echo(t, "shared")
	mustRegister(t, reg, nil, global)
	if reg.Get("shared", agent) != local || reg.Get("shared", nil) != global {
		t.Errorf("shadowing resolved wrongly")
	}
	if got, want := names(reg.Tools(agent)), []string{"first", "shared", "mine"}; !slices.Equal(got, want) {
		t.Errorf("agent view = %v, want %v", got, want)
	}
	if got := len(reg.Schemas(agent)); got != 3 {
		t.Errorf("agent schemas = %d, want 3", got)
	}
}

func TestRestrictions(t *testing.T) {
	reg := registry.New()
	for _, n := range []string{"read", "bash"} {
		mustRegister(t, reg, nil, echo(t, n))
	}
	agent := reg.NewScope("agent", nil)
	mustRegister(t, reg, agent, echo(t, "capture"))

	// C184: allow hides bash, keeps the scope's own tool, leaves global alone.
	allow := []string{"read"}
	lift, err := reg.Restrict(agent, registry.Restriction{Allow: allow})
	if err != nil {
		t.Fatal(err)
	}
	allow[0] = "bash" // C187: the filter was copied at call time
	if got, want := names(reg.Tools(agent)), []string{"read", "capture"}; !slices.Equal(got, want) {
		t.Errorf("restricted view = %v, want %v", got, want)
	}
	if got, want := names(reg.Tools(nil)), []string{"read", "bash"}; !slices.Equal(got, want) {
		t.Errorf("global view = %v, want %v", got, want)
	}

	// C185: an allow-list excludes later globals, a deny-list admits them.
	liftDeny, err := reg.Restrict(agent, registry.Restriction{Deny: []string{"bash"}})
	if err != nil {
		t.Fatal(err)
	}
	mustRegister(t, reg, nil, echo(t, "web"))
	if reg.Get("web", agent) != nil {
		t.Errorf("allow-list admitted a later global")
	}
	// C186: restrictions intersect and lift independently.
	lift()
	if reg.Get("web", agent) == nil || reg.Get("bash", agent) != nil {
		t.Errorf("after lifting the allow-list: web=%v bash=%v", reg.Get("web", agent), reg.Get("bash", agent))
	}
	liftDeny()
	if reg.Get("bash", agent) == nil {
		t.Errorf("bash still hidden after lifting every restriction")
	}

	// An empty, non-nil allow-list hides every inherited tool.
	if _, err := reg.Restrict(agent, registry.Restriction{Allow: []string{}}); err != nil {
		t.Fatal(err)
	}
	if got, want := names(reg.Tools(agent)), []string{"capture"}; !slices.Equal(got, want) {
		t.Errorf("allow:[] view = %v, want %v", got, want)
	}
}

func TestRestrictionsReachNestedScopes(t *testing.T) {
	// C189, C190, C191.
	reg := registry.New()
	mustRegister(t, reg, nil, echo(t, "read"))
	mustRegister(t, reg, nil, echo(t, "bash"))
	parent := reg.NewScope("parent", nil)
	mustRegister(t, reg, parent, echo(t, "inherited"))
	child := reg.NewScope("child", parent)
	mustRegister(t, reg, child, echo(t, "own"))

	if _, err := reg.Restrict(child, registry.Restriction{Deny: []string{"inherited"}}); err != nil {
		t.Fatal(err)
	}
	if reg.Get("inherited", child) != nil {
		t.Errorf("child's restriction did not filter a tool inherited from its parent")
	}
	if _, err := reg.Restrict(child, registry.Restriction{Allow: []string{"read"}}); err != nil {
		t.Fatal(err)
	}
	if reg.Get("own", child) == nil {
		t.Errorf("a scope's own tool was filtered by its own restriction")
	}
	if _, err := reg.Restrict(parent, registry.Restriction{Deny: []string{"read"}}); err != nil {
		t.Fatal(err)
	}
	grandchild := reg.NewScope("grandchild", child)
	if reg.Get("read", grandchild) != nil || reg.Get("read", child) != nil {
		t.Errorf("an ancestor's restriction did not reach nested scopes")
	}
	if reg.Get("read", nil) == nil {
		t.Errorf("a scoped restriction reached the global view")
	}
}

func TestRestrictMisuse(t *testing.T) {
	// C188.
	reg := registry.New()
	agent := reg.NewScope("agent", nil)
	mustRegister(t, reg, agent, echo(t, "local"))
	tests := []struct {
		name   string
		scope  *registry.Scope
		filter registry.Restriction
		want   []string
	}{
		{"no scope", nil, registry.Restriction{Deny: []string{"x"}}, []string{"requires a scope"}},
		{"empty filter", agent, registry.Restriction{}, []string{"no-op"}},
		{"reserved name", agent, registry.Restriction{Deny: []string{"run_code"}}, []string{`reserved Code Mode presentation transport "run_code"`}},
		{"own tool is unknown", agent, registry.Restriction{Deny: []string{"local"}}, []string{`tool "local", which scope "agent" does not inherit; it inherits: (none)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reg.Restrict(tt.scope, tt.filter)
			for _, w := range tt.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("error = %v, want it to contain %q", err, w)
				}
			}
		})
	}
	mustRegister(t, reg, nil, echo(t, "real"))
	mustRegister(t, reg, nil, echo(t, "alpha"))
	_, err := reg.Restrict(agent, registry.Restriction{Allow: []string{"a", "b"}})
	if err == nil || !strings.Contains(err.Error(), `tools "a", "b", which scope "agent" does not inherit; it inherits: alpha, real`) {
		t.Errorf("plural: error = %v", err)
	}
}

func TestGuards(t *testing.T) {
	reg := registry.New()
	agent := reg.NewScope("agent", nil)
	call := registry.NewCall(registry.CallSpec{ID: "c1", Name: "echo", Scope: agent})
	var order []string
	record := func(name, verdict string) registry.GuardFunc {
		return func(*registry.Call) string {
			order = append(order, name)
			return verdict
		}
	}
	// C194: global guards compose monotonically; an abstention does not allow.
	reg.Guard(nil, record("g1", ""))
	disposeScoped, _ := reg.Guard(agent, record("scoped", ""))
	if got := reg.CheckGuards(call); got != "" {
		t.Fatalf("abstaining guards denied: %q", got)
	}
	if want := []string{"g1", "scoped"}; !slices.Equal(order, want) {
		t.Errorf("order = %v, want %v", order, want)
	}
	// C195: a guard added by an earlier guard runs in the same pass.
	order = nil
	added := false
	reg.Guard(nil, func(*registry.Call) string {
		if !added {
			added = true
			reg.Guard(nil, record("late", "global denial"))
		}
		return ""
	})
	if got := reg.CheckGuards(call); got != "global denial" {
		t.Errorf("live iteration: got %q", got)
	}
	// C193: duplicate registrations unwind independently; agent-less calls
	// never see scoped guards.
	disposeScoped()
	order = nil
	plain := registry.NewCall(registry.CallSpec{ID: "c2", Name: "echo"})
	reg.CheckGuards(plain)
	if slices.Contains(order, "scoped") {
		t.Errorf("a scoped guard saw an agent-less call")
	}
	// A panicking guard denies with its message.
	reg2 := registry.New()
	reg2.Guard(nil, func(*registry.Call) string { panic("guard exploded") })
	if got := reg2.CheckGuards(plain); got != "guard exploded" {
		t.Errorf("panicking guard: got %q", got)
	}
}
