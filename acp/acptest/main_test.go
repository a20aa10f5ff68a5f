package acptest_test

import (
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

func TestMain(m *testing.M) {
	acptest.RequireSchema() // fails at once, saying "run `make deps` first"
	goleak.VerifyTestMain(m)
}

// hangGuard bounds the tests' waits: a guard against hangs, never a timing
// assertion, so generous enough for a loaded machine running the race
// detector.
const hangGuard = 2 * time.Minute

// schema is loaded once per test binary.
var schema = sync.OnceValues(acptest.OpenSchema)

// mustSchema returns the shared schema or fails the test.
func mustSchema(t *testing.T) *acptest.Schema {
	t.Helper()
	s, err := schema()
	if err != nil {
		t.Fatalf("%v", err)
	}
	return s
}
