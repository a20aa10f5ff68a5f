package main

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/sandbox"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	goleak.VerifyTestMain(m)
}
