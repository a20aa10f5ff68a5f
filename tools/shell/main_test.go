package shell

import (
	"os"
	"testing"

	"github.com/dsh-acp/dsh-acp/sandbox"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if os.Getenv(fakeShellVar) != "" {
		os.Exit(fakeShell(os.Args[1:]))
	}
	sandbox.Main()
	goleak.VerifyTestMain(m)
}
