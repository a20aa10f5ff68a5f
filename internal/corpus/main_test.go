package corpus_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

func TestMain(m *testing.M) {
	acptest.RequireSchema() // fails at once, saying "run `make deps` first"
	goleak.VerifyTestMain(m)
}
