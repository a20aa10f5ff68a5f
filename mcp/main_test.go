package mcp

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// helperEnv names the helper mode the test binary runs in when re-executed
// as an MCP server (or a process one starts); see runHelper.
const helperEnv = "DSH_MCP_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode))
	}
	goleak.VerifyTestMain(m)
}
