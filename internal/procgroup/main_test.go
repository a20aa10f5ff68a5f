package procgroup_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(roleEnv); role != "" {
		playRole(role)
		return
	}
	goleak.VerifyTestMain(m)
}
