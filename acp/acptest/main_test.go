package acptest_test

import (
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

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
