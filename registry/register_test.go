package registry_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
)

func TestSchemasProjectExactlyNameDescriptionParameters(t *testing.T) {
	// C1, C2, C3, C177: only the three model-visible fields are projected.
	reg := registry.New()
	tool, err := registry.Define(registry.Spec[textArgs, string]{
		Name: "echo", Description: "Say it back.", Timeout: time.Second,
		ConcurrencySafe: func(textArgs) bool { return true },
		Handler:         nil,
	})
	if err == nil || tool != nil {
		t.Fatalf("Define without a handler succeeded")
	}
	mustRegister(t, reg, nil, echo(t, "echo"))
	data, err := json.Marshal(reg.Schemas(nil))
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]json.RawMessage
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d schemas, want 1", len(got))
	}
	var keys []string
	for k := range got[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"Description", "Name", "Parameters"}; !slices.Equal(keys, want) {
		t.Errorf("schema keys = %v, want %v", keys, want)
	}
	if p := string(got[0]["Parameters"]); p != `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}` {
		t.Errorf("parameters = %s", p)
	}
}

func TestSchemasAreSnapshots(t *testing.T) {
	// C78: mutating a returned schema does not reach the registry.
	reg := registry.New()
	mustRegister(t, reg, nil, echo(t, "echo"))
	first := reg.Schemas(nil)
	for i := range first[0].Parameters {
		first[0].Parameters[i] = 'x'
	}
	if got := string(reg.Schemas(nil)[0].Parameters); strings.Contains(got, "xxx") {
		t.Errorf("registry schema was mutated: %s", got)
	}
}

func TestRegisterRules(t *testing.T) {
	tests := []struct {
		name    string
		define  func() (*registry.Tool, error)
		wantErr string
	}{
		{
			name: "C10 raw tool without render",
			define: func() (*registry.Tool, error) {
				return registry.DefineRaw(registry.RawSpec{Name: "r", Execute: nil})
			},
			wantErr: `tool "r" must declare output { schema, render, presentationMeta? }`,
		},
		{
			name: "C80 lossy raw parameters",
			define: func() (*registry.Tool, error) {
				return registry.DefineRaw(registry.RawSpec{
					Name: "lossy-schema", Parameters: `{"type":"object","default":1e400}`,
					Output:  registry.RawOutput{Render: renderValue},
					Execute: noopRaw,
				})
			},
			wantErr: `tool "lossy-schema" parameters must be lossless JSON before schema projection`,
		},
		{
			name: "C81 C128 negative timeout",
			define: func() (*registry.Tool, error) {
				return registry.Define(registry.Spec[textArgs, string]{Name: "slow", Timeout: -time.Millisecond, Handler: echoHandler})
			},
			wantErr: `tool "slow" timeout must be a positive duration`,
		},
		{
			name: "raw output schema outside the subset",
			define: func() (*registry.Tool, error) {
				return registry.DefineRaw(registry.RawSpec{
					Name:    "bad-out",
					Output:  registry.RawOutput{Schema: `{"type":"string","pattern":"x"}`, Render: renderValue},
					Execute: noopRaw,
				})
			},
			wantErr: `schema.pattern is not a supported keyword`,
		},
		{
			name: "name with spaces",
			define: func() (*registry.Tool, error) {
				return registry.Define(registry.Spec[textArgs, string]{Name: "two words", Handler: echoHandler})
			},
			wantErr: `may hold only letters, digits`,
		},
		{
			name: "non-struct arguments",
			define: func() (*registry.Tool, error) {
				return registry.Define(registry.Spec[string, string]{Name: "s", Handler: stringHandler})
			},
			wantErr: `must be a struct`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.define()
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestRegisterReservedAndDuplicateNames(t *testing.T) {
	reg := registry.New()
	reserved, err := registry.Define(registry.Spec[textArgs, string]{Name: registry.ReservedName, Handler: echoHandler})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Register(nil, reserved); err == nil || !strings.Contains(err.Error(), `"run_code" is reserved`) {
		t.Errorf("reserved name: error = %v", err)
	}

	// C82: a duplicate in the global layer points at scoped registration.
	dispose := mustRegister(t, reg, nil, echo(t, "echo"))
	_, err = reg.Register(nil, echo(t, "echo"))
	if err == nil || !strings.Contains(err.Error(), `tool "echo" is already registered (for a per-agent variant, register through that agent's scope instead)`) {
		t.Errorf("global duplicate: error = %v", err)
	}
	// C182: a duplicate in a scope says so.
	scope := reg.NewScope("agent", nil)
	mustRegister(t, reg, scope, echo(t, "echo"))
	if _, err := reg.Register(scope, echo(t, "echo")); err == nil || !strings.Contains(err.Error(), "already registered in this scope") {
		t.Errorf("scoped duplicate: error = %v", err)
	}
	// C83: the disposer unregisters, once.
	dispose()
	dispose()
	if reg.Get("echo", nil) != nil {
		t.Errorf("echo still registered after dispose")
	}
	mustRegister(t, reg, nil, echo(t, "echo"))
	dispose() // a stale disposer must not remove the new registration
	if reg.Get("echo", nil) == nil {
		t.Errorf("a stale disposer removed a later registration")
	}
}

func TestChangeListenerFailureRollsBack(t *testing.T) {
	// C84: a failing change listener rolls the registration back and does
	// not wedge the name.
	reg := registry.New()
	fail := true
	var events []registry.ChangeEvent
	reg.OnChange(func(ev registry.ChangeEvent) error {
		events = append(events, ev)
		if fail && ev.Kind == registry.ChangeRegistered {
			return errors.New("listener refused")
		}
		return nil
	})
	if _, err := reg.Register(nil, echo(t, "echo")); err == nil || err.Error() != "listener refused" {
		t.Fatalf("error = %v, want the listener's", err)
	}
	if reg.Get("echo", nil) != nil {
		t.Fatalf("registration was not rolled back")
	}
	fail = false
	mustRegister(t, reg, nil, echo(t, "echo"))
	if len(events) != 2 {
		t.Errorf("events = %d, want 2", len(events))
	}
	reg.OnChange(func(registry.ChangeEvent) error { panic("boom") })
	if _, err := reg.Register(nil, echo(t, "other")); err == nil || err.Error() != "boom" {
		t.Errorf("panicking listener: error = %v", err)
	}
}

func TestScopeCloseUnwindsInReverseOrder(t *testing.T) {
	// C85, C183: closing a scope undoes its registrations, newest first.
	reg := registry.New()
	scope := reg.NewScope("agent", nil)
	var order []string
	reg.OnChange(func(ev registry.ChangeEvent) error {
		if ev.Kind == registry.ChangeUnregistered {
			order = append(order, ev.Name)
		}
		return nil
	})
	mustRegister(t, reg, scope, echo(t, "a"))
	mustRegister(t, reg, scope, echo(t, "b"))
	mustRegister(t, reg, scope, echo(t, "c"))
	scope.Close()
	if want := []string{"c", "b", "a"}; !slices.Equal(order, want) {
		t.Errorf("unregister order = %v, want %v", order, want)
	}
	if got := reg.Tools(scope); len(got) != 0 {
		t.Errorf("closed scope still sees %v", names(got))
	}
	if _, err := reg.Register(scope, echo(t, "d")); err == nil {
		t.Errorf("registering in a closed scope succeeded")
	}
}

func TestGetAndTimeout(t *testing.T) {
	// C106, C107, C126, C127.
	reg := registry.New()
	slow, err := registry.Define(registry.Spec[textArgs, string]{Name: "slow", Timeout: 250 * time.Millisecond, Handler: echoHandler})
	if err != nil {
		t.Fatal(err)
	}
	mustRegister(t, reg, nil, slow)
	mustRegister(t, reg, nil, echo(t, "echo"))
	if got := reg.Get("slow", nil); got != slow || got.Timeout() != 250*time.Millisecond {
		t.Errorf("Get(slow) = %v", got)
	}
	if got := reg.Get("echo", nil).Timeout(); got != 0 {
		t.Errorf("echo timeout = %v, want 0", got)
	}
	if reg.Get("nope", nil) != nil {
		t.Errorf("Get(nope) found something")
	}
}
