package acp_test

import (
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

func TestMain(m *testing.M) {
	acptest.RequireSchema() // fails at once, saying "run `make deps` first"
	goleak.VerifyTestMain(m)
}

// schema is loaded once per test binary (compiling it takes ~0.1 s).
var schema = sync.OnceValues(acptest.OpenSchema)

// mustSchema returns the schema every test shares.
func mustSchema(t *testing.T) *acptest.Schema {
	t.Helper()
	s, err := schema()
	if err != nil {
		t.Fatalf("%v", err)
	}
	return s
}

// newClient connects an acptest.Client to acp.Serve running agent and
// initializes the connection; the initialize answer is taken, so WaitFrame
// does not return it.
func newClient(t *testing.T, agent *fakeAgent) *acptest.Client {
	t.Helper()
	c := acptest.NewClient(t, agent.bind, acptest.WithSchema(mustSchema(t)))
	ctx := testCtx(t)
	mustInitialize(ctx, t, c)
	if _, err := c.WaitFrame(ctx, func(f acptest.Frame) bool { return f.Answers == "initialize" }); err != nil {
		t.Fatal(err)
	}
	return c
}
