package main

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/dsh-acp/dsh-acp/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	goleak.VerifyTestMain(m)
}
