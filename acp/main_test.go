package acp_test

import (
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// schema is loaded once per test binary (compiling it takes ~0.1 s).
var schema = sync.OnceValues(acptest.OpenSchema)

// newClient connects an acptest.Client to acp.Serve running agent.
func newClient(t *testing.T, agent *fakeAgent) *acptest.Client {
	t.Helper()
	s, err := schema()
	if err != nil {
		t.Fatalf("%v", err)
	}
	return acptest.NewClient(t, agent.bind, acptest.WithSchema(s))
}
